package uitest

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/app"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest/cdntest"
)

// TestFirstRunPanel drives the first-run panel on a machine with no browser, against a
// stand-in download host on 127.0.0.1: the panel lists the browsers looked for, the download
// shows its bytes of the total on a progress bar, Cancel ends it leaving nothing in
// Playwright's folder, and a second download installs Playwright's Chromium, after which the
// panel goes and Settings say runs use it. axe-core finds nothing wrong at each stage, in
// the light theme and the dark.
func TestFirstRunPanel(t *testing.T) {
	browsers := t.TempDir()
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", browsers)
	t.Setenv("OBSERVATORY_CHROMIUM", "")
	pc, err := browser.LocatePlaywrightChromium()
	if err != nil {
		t.Fatalf("locate Playwright's Chromium: %v", err)
	}
	exe, err := filepath.Rel(pc.Dir, pc.Executable)
	must(t, "find the executable in the zip", err)
	u, err := url.Parse(pc.URL)
	must(t, "parse the download URL", err)
	body := cdntest.ChromiumZip(t, filepath.ToSlash(exe), os.DevNull, 3<<20)
	host := cdntest.Serve(t, u.Path, body)
	t.Setenv("PLAYWRIGHT_DOWNLOAD_HOST", host.URL)
	host.Slow(true)

	noBrowsers := browser.Locator{System: func() []browser.Candidate { return nil }}
	srv, _, _ := newServerWithOptions(t, app.Options{Browsers: noBrowsers})
	page := openPage(t, srv)
	panel := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Set up a browser to run tasks"})
	must(t, "the first-run panel shows", expect.Locator(panel).ToBeVisible())
	must(t, "it lists Playwright's Chromium as not downloaded",
		expect.Locator(panel.GetByRole("listitem").Last()).ToContainText("Playwright's Chromium "+pc.Executable+" not found: not downloaded"))
	checkA11y(t, page, "the first-run panel")

	must(t, "start the download", button(page, "Download Playwright's Chromium").Click())
	half := fmt.Sprintf("Downloading Playwright's Chromium: %.1f MB of %.1f MB", float64(len(body)/2)/1e6, float64(len(body))/1e6)
	must(t, "the panel shows the bytes so far of the total", expect.Locator(panel.GetByRole("status")).ToHaveText(half))
	bar := panel.GetByRole("progressbar", playwright.LocatorGetByRoleOptions{Name: "Setup progress"})
	must(t, "the progress bar stands at half", expect.Locator(bar).ToHaveAttribute("value", fmt.Sprint(len(body)/2)))
	must(t, "its maximum is the total", expect.Locator(bar).ToHaveAttribute("max", fmt.Sprint(len(body))))
	checkA11y(t, page, "the first-run panel downloading")
	must(t, "prefer dark", page.EmulateMedia(playwright.PageEmulateMediaOptions{ColorScheme: playwright.ColorSchemeDark}))
	must(t, "see the dark theme", expect.Locator(page.Locator("html")).ToHaveAttribute("data-theme", "dark"))
	checkA11y(t, page, "the first-run panel downloading, dark")

	must(t, "cancel the download", button(page, "Cancel").Click())
	must(t, "the panel says it was cancelled", expect.Locator(panel.GetByRole("status")).ToHaveText("Cancelled: nothing was kept."))
	// The setup links the system ffmpeg there for video before it downloads; nothing else may stay.
	left, err := os.ReadDir(browsers)
	must(t, "list Playwright's folder", err)
	for _, e := range left {
		if !strings.HasPrefix(e.Name(), "ffmpeg-") {
			t.Errorf("after Cancel Playwright's folder holds %s", e.Name())
		}
	}

	host.Slow(false)
	must(t, "download again", button(page, "Download Playwright's Chromium").Click())
	must(t, "the panel goes once Chromium is there", expect.Locator(panel).ToBeHidden(playwright.LocatorAssertionsToBeHiddenOptions{Timeout: playwright.Float(runTimeout)}))
	if !pc.Installed() {
		t.Errorf("Playwright's Chromium is not installed at %s after the download", pc.Dir)
	}
	if got := host.Requests.Load(); got != 2 {
		t.Errorf("the host was asked %d times, want 2 (the cancelled download and the second)", got)
	}
	must(t, "open the settings", button(page, "Settings").Click())
	must(t, "Settings say runs use the downloaded Chromium",
		expect.Locator(page.GetByText("Runs use Playwright's Chromium: "+pc.Executable)).ToBeVisible())
	checkA11y(t, page, "the settings with the downloaded Chromium")
}
