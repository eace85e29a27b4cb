package uitest

import (
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// background is the window's background colour as the browser computes it.
func background(t *testing.T, page playwright.Page) string {
	t.Helper()
	v, err := page.Evaluate(`() => getComputedStyle(document.documentElement).backgroundColor`)
	must(t, "read the background", err)
	return v.(string)
}

// TestDarkTheme follows the system's dark preference, takes the user's choice over it,
// remembers the choice across a reload, and keeps axe-core at zero violations in the dark.
func TestDarkTheme(t *testing.T) {
	page := openPage(t, newServer(t))
	const dark = "rgb(17, 20, 24)"
	theme := page.GetByRole("combobox", playwright.PageGetByRoleOptions{Name: "Theme"})

	must(t, "prefer dark", page.EmulateMedia(playwright.PageEmulateMediaOptions{ColorScheme: playwright.ColorSchemeDark}))
	must(t, "see the dark theme", expect.Locator(page.Locator("html")).ToHaveAttribute("data-theme", "dark"))
	if bg := background(t, page); bg != dark {
		t.Errorf("the system prefers dark, the background is %s, want %s", bg, dark)
	}
	_, err := theme.SelectOption(playwright.SelectOptionValues{Values: &[]string{"light"}})
	must(t, "choose light", err)
	must(t, "see the light theme", expect.Locator(page.Locator("html")).ToHaveAttribute("data-theme", "light"))

	must(t, "prefer light", page.EmulateMedia(playwright.PageEmulateMediaOptions{ColorScheme: playwright.ColorSchemeLight}))
	_, err = theme.SelectOption(playwright.SelectOptionValues{Values: &[]string{"dark"}})
	must(t, "choose dark", err)
	_, err = page.Reload()
	must(t, "reload", err)
	must(t, "see dark after the reload", expect.Locator(page.Locator("html")).ToHaveAttribute("data-theme", "dark"))
	if bg := background(t, page); bg != dark {
		t.Errorf("dark chosen, the background is %s, want %s", bg, dark)
	}
	must(t, "see the choice kept", expect.Locator(theme).ToHaveValue("dark"))

	runAttempt(t, page, "Notice shown, nothing saved", "failed")
	checkA11y(t, page, "the trace in the dark theme")
	snap(t, page, "dark-trace")
}
