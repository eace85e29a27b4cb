package uitest

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// Step headings of the booking lab's five-step plan, as the trace viewer shows them.
var headings = []string{
	"Step 1 of 5: Open reservation dialog",
	"Step 2 of 5: Fill task title",
	"Step 3 of 5: Choose a room",
	"Step 4 of 5: Submit reservation form",
	"Step 5 of 5: Verify committed reservation",
}

// TestRunAndTrace checks that selecting a row runs nothing, runs "Saves normally" from its ▶,
// then steps through its trace with the keyboard, and checks the samples, the diff, the
// distance, the gate and the recorded video.
func TestRunAndTrace(t *testing.T) {
	page := openPage(t, newServer(t))
	t.Run("selecting a row runs nothing", func(t *testing.T) {
		r := row(page, "Saves normally")
		must(t, "click the row", r.Click())
		must(t, "see the row selected", expect.Locator(r).ToHaveAttribute("aria-current", "true"))
		must(t, "press ArrowDown", page.Keyboard().Press("ArrowDown"))
		must(t, "see the next row selected", expect.Locator(row(page, "Notice shown, nothing saved")).ToHaveAttribute("aria-current", "true"))
		must(t, "see Stop stay disabled", expect.Locator(button(page, "Stop")).ToBeDisabled())
		expectText(t, cell(r, colTerminal), "")
		checkA11y(t, page, "the attempts before any run")
	})
	r := runAttempt(t, page, "Saves normally", "completed")
	// The run ends once the attempt's video is encoded, after its verdict; the trace is read
	// once it has, so that the run's end does not redraw it under the checks.
	must(t, "see the run end", expect.Locator(button(page, "Stop")).ToBeDisabled())
	expectText(t, cell(r, colGate), "done")
	expectText(t, cell(r, colSaved), "yes")
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
	expectContains(t, trace.GetByRole("heading", playwright.LocatorGetByRoleOptions{Level: playwright.Int(2)}), "Saves normally")

	t.Run("keyboard steps", func(t *testing.T) {
		press(t, page, "Home", headings[0])
		press(t, page, "ArrowRight", headings[1])
		press(t, page, "ArrowRight", headings[2])
		press(t, page, "End", headings[4])
		press(t, page, "ArrowRight", headings[4]) // the last step stays
		press(t, page, "ArrowLeft", headings[3])
		press(t, page, "Home", headings[0])
		press(t, page, "ArrowLeft", headings[0]) // the first step stays
	})

	t.Run("submit step shows screenshots, diff and distance", func(t *testing.T) {
		press(t, page, "End", headings[4])
		press(t, page, "ArrowLeft", headings[3])
		shown := trace.GetByRole("region", playwright.LocatorGetByRoleOptions{Name: "Page", Exact: playwright.Bool(true)})
		must(t, "see the after screenshot", expect.Locator(shown.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: "After screenshot"})).ToBeVisible())
		must(t, "show before", button(page, "Before").Click())
		must(t, "see the before screenshot", expect.Locator(shown.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: "Before screenshot"})).ToBeVisible())
		must(t, "show after", button(page, "After").Click())
		must(t, "see the distance", expect.Locator(page.GetByTestId("distance")).ToHaveText(number))
		press(t, page, "Home", headings[0]) // opening the dialog always changes the page
		must(t, "open the Diff tab", page.GetByRole("tab", playwright.PageGetByRoleOptions{Name: "Diff"}).Click())
		must(t, "see the changes", expect.Locator(trace.GetByRole("list", playwright.LocatorGetByRoleOptions{Name: "Changes"})).ToBeVisible())
		must(t, "back to the Gate tab", page.GetByRole("tab", playwright.PageGetByRoleOptions{Name: "Gate"}).Click())
	})

	t.Run("fits 1280×720 without a page scroll, with a large screenshot", func(t *testing.T) {
		resize(t, page, 1280, 720)
		overflow, err := page.Evaluate(`() => { const d = document.documentElement; return [d.scrollWidth - d.clientWidth, d.scrollHeight - d.clientHeight]; }`)
		must(t, "measure the page", err)
		if o := overflow.([]any); o[0].(int) > 0 || o[1].(int) > 0 {
			t.Errorf("the page scrolls by %v px (x, y) at 1280×720", o)
		}
		img := trace.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: "After screenshot"})
		must(t, "see the screenshot", expect.Locator(img).ToBeVisible())
		box, err := img.BoundingBox()
		must(t, "measure the screenshot", err)
		// The gate and its evidence take 40 % of the trace's height: the picture gets the rest,
		// about 160 px at this size (the least window the app is made for), the folded table
		// and the timeline's one-line marks leaving it the room.
		if box == nil || box.Width < 400 || box.Height < 155 {
			t.Errorf("the screenshot is %+v at 1280×720, want at least 400×155", box)
		}
		snap(t, page, "trace-1280x720")
	})

	t.Run("pane sizes survive a reload", func(t *testing.T) {
		sep := page.GetByRole("separator", playwright.PageGetByRoleOptions{Name: "Resize the steps list"})
		must(t, "focus the splitter", sep.Focus())
		must(t, "widen the steps list", sep.Press("ArrowRight"))
		must(t, "see it wider", expect.Locator(sep).ToHaveAttribute("aria-valuenow", "246"))
		_, err := page.Reload()
		must(t, "reload", err)
		must(t, "see it still wider", expect.Locator(sep).ToHaveAttribute("aria-valuenow", "246"))
		must(t, "narrow it back", sep.Press("ArrowLeft"))
	})

	t.Run("gate checklist holds", func(t *testing.T) {
		gate := trace.GetByRole("region", playwright.LocatorGetByRoleOptions{Name: "Completion gate", Exact: playwright.Bool(true)})
		expectContains(t, gate.GetByRole("heading"), "6 of 6 hold")
		conditions := gate.Locator(`[data-testid^="condition-"]`)
		must(t, "see six conditions", expect.Locator(conditions).ToHaveCount(6))
		for i := range 6 {
			expectText(t, conditions.Nth(i).Locator(".state"), "holds")
		}
		checkA11y(t, page, "the trace")
	})

	t.Run("video seeks to the chosen step", func(t *testing.T) {
		video := loadedVideo(t, page)
		press(t, page, "Home", headings[0])
		for _, h := range headings[1:4] {
			press(t, page, "ArrowRight", h)
		}
		start := stepStart(t, page)
		seeked := fmt.Sprintf("v => Math.abs(v.currentTime - %g) < 0.05", start)
		h, err := video.ElementHandle()
		must(t, "find the video", err)
		if _, err := page.WaitForFunction(seeked, h); err != nil {
			got, _ := video.Evaluate("v => v.currentTime", nil)
			t.Fatalf("the video did not seek to step 4's start %.3f s: currentTime %v: %v", start, got, err)
		}
		snap(t, page, "trace-with-video")
	})

	t.Run("the timeline and the video are one selection", func(t *testing.T) {
		video := loadedVideo(t, page)
		h, err := video.ElementHandle()
		must(t, "find the video", err)
		steps := trace.GetByRole("navigation", playwright.LocatorGetByRoleOptions{Name: "Steps"})
		must(t, "choose step 2 in the list", steps.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Fill task title"}).Click())
		expectText(t, page.GetByTestId("step-heading"), headings[1])
		into := stepStart(t, page) + 0.005
		marks := trace.GetByRole("listbox", playwright.LocatorGetByRoleOptions{Name: "Timeline marks"})
		must(t, "choose step 3 on the timeline", marks.GetByRole("option", playwright.LocatorGetByRoleOptions{Name: "Step 3: "}).Click())
		expectText(t, page.GetByTestId("step-heading"), headings[2])
		start := stepStart(t, page)
		if _, err := page.WaitForFunction(fmt.Sprintf("v => Math.abs(v.currentTime - %g) < 0.05", start), h); err != nil {
			got, _ := video.Evaluate("v => v.currentTime", nil)
			t.Fatalf("choosing step 3 on the timeline did not seek the video to %.3f s: currentTime %v: %v", start, got, err)
		}
		// Seek the video into step 2: the selection follows it, and the video stays there.
		_, err = video.Evaluate(fmt.Sprintf("v => { v.currentTime = %g; }", into), nil)
		must(t, "seek the video", err)
		expectText(t, page.GetByTestId("step-heading"), headings[1])
		must(t, "see step 2 chosen on the timeline", expect.Locator(marks.GetByRole("option", playwright.LocatorGetByRoleOptions{Selected: playwright.Bool(true)})).ToHaveAccessibleName(regexp.MustCompile(`^Step 2: `)))
		if got, err := video.Evaluate("v => v.currentTime", nil); err != nil || math.Abs(toFloat(got)-into) > 0.05 {
			t.Errorf("the video jumped after the selection followed it: currentTime %v (want %.3f): %v", got, into, err)
		}
		checkA11y(t, page, "the trace with its timeline and video")
	})
}

// stepStart reads the shown step's start, in seconds, from its facts ("812 ms").
func stepStart(t *testing.T, page playwright.Page) float64 {
	t.Helper()
	dd := page.Locator(".facts div").Filter(playwright.LocatorFilterOptions{
		Has: page.GetByText("Start", playwright.PageGetByTextOptions{Exact: playwright.Bool(true)}),
	}).Locator("dd")
	text, err := dd.TextContent()
	must(t, "read the step's start", err)
	ms, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(text), " ms"))
	if err != nil {
		t.Fatalf("the step's start %q is not a number of ms: %v", text, err)
	}
	return float64(ms) / 1000
}
