package uitest

import (
	"math"
	"regexp"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestPickAnElementInTheDOMSnapshot runs "Saves normally" with DOM snapshots on and looks at
// the submit's snapshot as a person would at 1280×720: it fills its pane as the screenshot
// did (as tall, in the page's proportions), with the step's target drawn; with *Pick element*
// (P) pointing at the Save button highlights exactly that button, labelled, and a click gives
// `target: {role: button, name: Save reservation}` in full, which Copy copies. The highlight's
// label sits beside it inside the snapshot, as the step's boxes' labels do. The frame stays
// inert throughout: still the snapshot (no link followed), its sandbox given its same origin
// alone while picking and nothing again after Esc. At 200 % it opens centred on the target.
func TestPickAnElementInTheDOMSnapshot(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	page := openPage(t, srv)
	resize(t, page, 1280, 720)
	must(t, "let the page copy", page.Context().GrantPermissions([]string{"clipboard-read", "clipboard-write"}))
	domSnapshotsOn(t, page)
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
	runAttempt(t, page, "Saves normally", "completed")
	press(t, page, "End", headings[4])
	press(t, page, "ArrowLeft", headings[3])
	// The window shows the stored run once it has read it (the trace opened on the live one is
	// then drawn afresh): wait for that, as a person waits for the page to settle.
	runs, err := st.List()
	must(t, "list the runs", err)
	must(t, "see the stored run shown", expect.Page(page).ToHaveURL(regexp.MustCompile(`#/run/`+regexp.QuoteMeta(runs[0].ID)+`/attempt/saves-normally/step/4$`)))
	saveBox := stored(t, st, "saves-normally").Steps[3].TargetBox
	if saveBox == nil {
		t.Fatal("the stored submit step has no target box")
	}
	screenshot := shownHeight(t, trace.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: "Before screenshot"}))

	must(t, "show the DOM snapshots", button(page, "DOM").Click())
	stage := trace.GetByTestId("dom-stage").First()
	must(t, "see the snapshot before the submit", expect.Locator(stage.Locator(`iframe[title="Before DOM snapshot"]`)).ToBeVisible())
	must(t, "see the target drawn on it", expect.Locator(stage.GetByTestId("target-box")).ToBeVisible())
	s := rect(t, stage)
	if s.h < 200 || s.h < screenshot-2 {
		t.Errorf("the snapshot is %.0f px tall, the screenshot was %.0f: want it as large, and 200 px or more", s.h, screenshot)
	}
	if want := saveBox.ViewportWidth / saveBox.ViewportHeight; math.Abs(s.w/s.h-want) > 0.02 {
		t.Errorf("the snapshot is drawn %.0f×%.0f, not in its viewport's proportions %.3f", s.w, s.h, want)
	}

	pick := button(page, "Pick element")
	must(t, "press P", page.Keyboard().Press("p"))
	must(t, "see picking on", expect.Locator(pick).ToHaveAttribute("aria-pressed", "true"))
	frame := stage.Locator("iframe.dom-frame")
	must(t, "see the frame given its same origin alone", expect.Locator(frame).ToHaveAttribute("sandbox", "allow-same-origin"))
	expectContains(t, trace.GetByRole("status", playwright.LocatorGetByRoleOptions{Name: "Picked element"}), "click it for its target")
	// Where the recorded box of the Save button falls on the snapshot, fitted again under the line that says how to pick.
	s = rect(t, stage)
	scale := s.w / saveBox.ViewportWidth
	at := rectOf{s.x + saveBox.X*scale, s.y + saveBox.Y*scale, saveBox.Width * scale, saveBox.Height * scale}
	hover := stage.GetByTestId("hover-box")
	h := hoverAt(t, page, hover, at.x+at.w/2, at.y+at.h/2)
	expectText(t, hover, `button "Save reservation"`)
	// Its label is placed as the step's boxes' labels are: beside the box, inside the stage.
	label := hover.Locator(":scope > *").First()
	expectBeside(t, label)
	inside, err := label.Evaluate(`(l) => {
		const r = l.getBoundingClientRect(), s = l.closest('[data-testid="dom-stage"]').getBoundingClientRect();
		return r.left >= s.left - 0.5 && r.top >= s.top - 0.5 && r.right <= s.right + 0.5 && r.bottom <= s.bottom + 0.5;
	}`, nil)
	must(t, "measure the hover label", err)
	if inside != true {
		t.Errorf("the hover label leaves the DOM snapshot's stage")
	}
	if math.Abs(h.x-at.x) > 3 || math.Abs(h.y-at.y) > 3 || math.Abs(h.w-at.w) > 3 || math.Abs(h.h-at.h) > 3 {
		t.Errorf("the highlight is at %+v, the Save button's recorded box at %+v", h, at)
	}
	locator := trace.GetByTestId("picked-locator")
	pickAt(t, page, locator, at.x+at.w/2, at.y+at.h/2)
	expectText(t, locator, "target: {role: button, name: Save reservation}")
	must(t, "see the locator in view", expect.Locator(locator).ToBeInViewport(playwright.LocatorAssertionsToBeInViewportOptions{Ratio: playwright.Float(1)}))
	must(t, "see the picked box", expect.Locator(stage.GetByTestId("picked-box")).ToBeVisible())
	must(t, "copy it", button(page, "Copy").Click())
	must(t, "see it copied", expect.Locator(trace.GetByText("Copied", playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)})).ToBeVisible())
	copied, err := page.Evaluate(`() => navigator.clipboard.readText()`)
	must(t, "read the clipboard", err)
	if copied != "target: {role: button, name: Save reservation}" {
		t.Errorf("the clipboard holds %q", copied)
	}
	url, err := frame.Evaluate(`f => f.contentDocument.URL`, nil)
	must(t, "read the frame's address", err)
	if url != "about:srcdoc" {
		t.Errorf("the snapshot's frame went to %v", url)
	}
	noScroll(t, page)
	checkA11y(t, page, "a picked element of the DOM snapshot")
	snap(t, page, "dom-picker")

	must(t, "press Esc", page.Keyboard().Press("Escape"))
	must(t, "see picking off", expect.Locator(pick).ToHaveAttribute("aria-pressed", "false"))
	must(t, "see the frame with no permission again", expect.Locator(frame).ToHaveAttribute("sandbox", ""))
	must(t, "see no locator line", expect.Locator(locator).ToHaveCount(0))

	// Zoomed, the snapshot's pane opens centred on the target, as the screenshots' do.
	must(t, "zoom to 200%", button(page, "200%").Click())
	target := stage.GetByTestId("target-box")
	must(t, "see the target in view at 200%", expect.Locator(target).ToBeInViewport())
	if z := rect(t, stage); z.w < 2*s.w {
		t.Errorf("at 200%% the snapshot is %.0f px wide, fitted it was %.0f", z.w, s.w)
	}
	must(t, "back to fit", button(page, "Fit").Click())
}

// domSnapshotsOn turns DOM snapshots on in Settings for the runs that follow.
func domSnapshotsOn(t *testing.T, page playwright.Page) {
	t.Helper()
	must(t, "open the settings", button(page, "Settings").Click())
	must(t, "turn DOM snapshots on", page.GetByLabel("DOM snapshots beside them").Check())
	must(t, "save", button(page, "Save").Click())
	must(t, "close the settings", button(page, "Settings").Click())
}

// hoverAt points at (x, y) until hover is drawn and returns where: the frame under it may be
// remounted by a re-render under load (the app reading a resize late), which drops a highlight
// until the pointer moves again, so it moves again, a pixel aside, a bounded number of times.
func hoverAt(t *testing.T, page playwright.Page, hover playwright.Locator, x, y float64) rectOf {
	t.Helper()
	for k := 0; k < 5; k++ {
		must(t, "point at the element", page.Mouse().Move(x+float64(k%2), y))
		if expect.Locator(hover).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{Timeout: playwright.Float(3000)}) != nil {
			continue
		}
		v, err := hover.Evaluate(`e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }`, nil, playwright.LocatorEvaluateOptions{Timeout: playwright.Float(1000)})
		if err == nil {
			r := v.([]any)
			return rectOf{toFloat(r[0]), toFloat(r[1]), toFloat(r[2]), toFloat(r[3])}
		}
	}
	t.Fatal("pointing at the element drew no highlight")
	return rectOf{}
}

// pickAt clicks (x, y) while picking until the picked element's locator is shown: a
// re-render under load may remount the frame between the pointer's move and its click, which
// drops the click, so it clicks again, a bounded number of times.
func pickAt(t *testing.T, page playwright.Page, locator playwright.Locator, x, y float64) {
	t.Helper()
	for k := 0; ; k++ {
		must(t, "pick it", page.Mouse().Click(x, y))
		err := expect.Locator(locator).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{Timeout: playwright.Float(3000)})
		if err == nil || k == 4 {
			must(t, "see the picked element's locator", err)
			return
		}
	}
}

// rectOf is an element's place on the page, in CSS px.
type rectOf struct{ x, y, w, h float64 }

// rect is where l is drawn, once it is visible and laid out: a re-render (the window reading
// a resize late, the trace drawn afresh) may replace it while it is measured, so it measures
// afresh a bounded number of times.
func rect(t *testing.T, l playwright.Locator) rectOf {
	t.Helper()
	var r rectOf
	for k := 0; k < 10 && (r.w == 0 || r.h == 0); k++ {
		must(t, "see an element", expect.Locator(l).ToBeVisible())
		v, err := l.Evaluate(`async (e) => {
			for (let k = 0; k < 60 && !(e.isConnected && e.clientWidth && e.clientHeight); k++) await new Promise((ok) => requestAnimationFrame(ok));
			const r = e.getBoundingClientRect();
			return [r.left, r.top, r.width, r.height];
		}`, nil)
		if err != nil {
			continue
		}
		a := v.([]any)
		r = rectOf{toFloat(a[0]), toFloat(a[1]), toFloat(a[2]), toFloat(a[3])}
	}
	return r
}
