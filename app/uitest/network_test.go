package uitest

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestNetworkTabShowsTheRefusedSave runs the attempt whose save the lab refuses, finds the
// step that recorded the save POST, and checks what the Network, Console and Errors tabs
// show of it, the status filter, the request's detail, the HAR export and axe-core.
func TestNetworkTabShowsTheRefusedSave(t *testing.T) {
	page := openPage(t, newServer(t))
	runAttempt(t, page, "Save refused by the server", "rejected")
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
	tab := func(name string) playwright.Locator {
		return trace.GetByRole("tab", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(`^` + name + ` \(\d+(, \d+ failed)?\)$`)})
	}
	requests := trace.GetByRole("listbox", playwright.LocatorGetByRoleOptions{Name: "Requests"})
	save := requests.GetByRole("option").Filter(playwright.LocatorFilterOptions{HasText: "/api/reservations"})

	// The save POST belongs to the step that sent it: look from the last step back,
	// once the trace holds the whole attempt, waiting at each step until it is shown.
	heading := page.GetByTestId("step-heading")
	expectContains(t, trace.GetByTestId("ended"), "Ended rejected")
	must(t, "go to the last step", page.Keyboard().Press("End"))
	must(t, "be at the last step", expect.Locator(button(page, "Next step")).ToBeDisabled())
	must(t, "open the Network tab", tab("Network").Click())
	for k := 0; ; k++ {
		// A third of a page reaction's time at each step: a loaded machine may draw a step's
		// requests late, and a step left too soon is never looked at again.
		if expect.Locator(save).ToHaveCount(1, playwright.LocatorAssertionsToHaveCountOptions{Timeout: playwright.Float(uiTimeout / 3)}) == nil {
			break
		}
		if k == 5 {
			t.Fatal("no step's Network tab lists the save POST")
		}
		shown, err := heading.TextContent()
		must(t, "read the step heading", err)
		must(t, "go back a step", button(page, "Previous step").Click())
		must(t, "see the step before", expect.Locator(heading).Not().ToHaveText(shown))
	}
	label, err := tab("Network").TextContent()
	must(t, "read the Network tab's label", err)
	if label == "Network (0)" {
		t.Errorf("the Network tab reads %q with a request listed", label)
	}
	expectContains(t, save, "POST")
	expectContains(t, save, "409")
	expectContains(t, save, "failed: 409 Conflict")
	must(t, "see the failed save chosen at first", expect.Locator(save).ToHaveAttribute("aria-selected", "true"))

	_, err = trace.GetByRole("combobox", playwright.LocatorGetByRoleOptions{Name: "Status"}).SelectOption(playwright.SelectOptionValues{Values: &[]string{"failed"}})
	must(t, "show failed requests only", err)
	must(t, "see the save alone", expect.Locator(requests.GetByRole("option")).ToHaveCount(1))
	must(t, "choose the save", save.Click())
	must(t, "see it chosen", expect.Locator(save).ToHaveAttribute("aria-selected", "true"))
	detail := trace.GetByRole("region", playwright.LocatorGetByRoleOptions{Name: "Request detail"})
	expectContains(t, detail, "409 Conflict")
	expectContains(t, detail, "took")
	expectContains(t, detail, "Content-Type")
	expectContains(t, detail, "Not recorded: bodies are kept only with the Request bodies setting")
	must(t, "filter by text", trace.GetByRole("searchbox", playwright.LocatorGetByRoleOptions{Name: "Filter"}).Fill("no-such-request"))
	expectText(t, trace.GetByText("No request matches the filters."), "No request matches the filters.")
	must(t, "clear the filter", trace.GetByRole("searchbox", playwright.LocatorGetByRoleOptions{Name: "Filter"}).Fill(""))
	checkA11y(t, page, "the Network tab with a failed request chosen")
	_, err = page.GetByRole("combobox", playwright.PageGetByRoleOptions{Name: "Theme"}).SelectOption(playwright.SelectOptionValues{Values: &[]string{"dark"}})
	must(t, "choose the dark theme", err)
	must(t, "see the dark theme", expect.Locator(page.Locator("html")).ToHaveAttribute("data-theme", "dark"))
	checkA11y(t, page, "the Network tab in the dark theme")
	snap(t, page, "network")
	_, err = page.GetByRole("combobox", playwright.PageGetByRoleOptions{Name: "Theme"}).SelectOption(playwright.SelectOptionValues{Values: &[]string{"light"}})
	must(t, "choose the light theme", err)

	must(t, "open the Console tab", tab("Console").Click())
	expectContains(t, trace.GetByRole("tabpanel"), "the server responded with a status of 409 (Conflict)")
	checkA11y(t, page, "the Console tab")
	must(t, "open the Errors tab", tab("Errors").Click())
	expectContains(t, trace.GetByRole("tabpanel"), "Exceptions the page threw")
	checkA11y(t, page, "the Errors tab")

	path := download(t, page, func() error { return button(page, "Export HAR").Click() })
	data, err := os.ReadFile(path)
	must(t, "read the HAR", err)
	var har struct {
		Log struct {
			Version string
			Entries []struct {
				Request  struct{ Method, URL string }
				Response struct{ Status int }
			}
		}
	}
	must(t, "parse the HAR", json.Unmarshal(data, &har))
	found := false
	for _, e := range har.Log.Entries {
		found = found || (e.Request.Method == "POST" && strings.HasSuffix(e.Request.URL, "/api/reservations") && e.Response.Status == 409)
	}
	if har.Log.Version != "1.2" || !found {
		t.Errorf("the HAR (version %q, %d entries) has no POST /api/reservations answered 409", har.Log.Version, len(har.Log.Entries))
	}
}
