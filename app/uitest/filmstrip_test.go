package uitest

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// TestTheFilmstripShowsEveryStep runs "Saves normally" and reads its filmstrip as a person
// would, at 1280×720 and at 1920×1080: every step's real thumbnail loaded and tall enough to
// tell pages apart (28 px at 1280×720, 44 at 1920×1080; there were none), the whole attempt
// on the strip, the chosen step marked and in view as ←/→ move it, the app's events on a
// lane of their own under the steps and smaller than them, a hover showing the step larger
// with its name, a click choosing it; and on the submit's pictures the target's label beside
// its box, never over it.
func TestTheFilmstripShowsEveryStep(t *testing.T) {
	page := openPage(t, newServer(t))
	resize(t, page, 1280, 720)
	runAttempt(t, page, "Saves normally", "completed")
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
	strip := trace.GetByRole("listbox", playwright.LocatorGetByRoleOptions{Name: "Timeline marks"})
	stepLane := trace.GetByTestId("step-lane")
	eventLane := trace.GetByTestId("event-lane")
	selected := strip.GetByRole("option", playwright.LocatorGetByRoleOptions{Selected: playwright.Bool(true)})

	for _, size := range []struct {
		w, h     int
		thumb    float64
		name     string
		fullSize bool
	}{{1280, 720, 28, "filmstrip", false}, {1920, 1080, 44, "filmstrip-1080", true}} {
		t.Run(fmt.Sprintf("at %d×%d", size.w, size.h), func(t *testing.T) {
			resize(t, page, size.w, size.h)
			press(t, page, "Home", headings[0])
			must(t, "see a thumbnail per step", expect.Locator(stepLane.Locator("img")).ToHaveCount(len(headings)))
			if h := thumbnailsHeight(t, stepLane, size.thumb); h < size.thumb {
				t.Errorf("the thumbnails are %.0f px tall, want %.0f or more, each loaded", h, size.thumb)
			}
			for k, h := range headings[1:4] {
				press(t, page, "ArrowRight", h)
				must(t, "see the step chosen on the strip", expect.Locator(selected).ToHaveAccessibleName(regexp.MustCompile(fmt.Sprintf(`^Step %d: `, k+2))))
				expectShownInStrip(t, selected)
			}
			marked, err := selected.Evaluate(`o => getComputedStyle(o).boxShadow !== getComputedStyle(o.parentElement.querySelector('[aria-selected="false"]')).boxShadow`, nil)
			must(t, "compare the chosen cell with another", err)
			if marked != true {
				t.Error("the chosen step's cell looks like any other")
			}
			expectOwnLane(t, stepLane, eventLane)

			must(t, "hover step 2", stepLane.GetByRole("option", playwright.LocatorGetByRoleOptions{Name: "Step 2: "}).Hover())
			preview := trace.GetByTestId("strip-preview")
			expectContains(t, preview, "Step 2: Fill task title")
			if h := thumbnailsHeight(t, preview, 150); h < 150 {
				t.Errorf("the hover preview's picture is %.0f px tall, want 150 or more, loaded", h)
			}
			must(t, "hover step 4", stepLane.GetByRole("option", playwright.LocatorGetByRoleOptions{Name: "Step 4: "}).Hover())
			expectContains(t, preview, "Step 4: Submit reservation form")
			snap(t, page, size.name)
			must(t, "click step 3", stepLane.GetByRole("option", playwright.LocatorGetByRoleOptions{Name: "Step 3: "}).Click())
			expectText(t, page.GetByTestId("step-heading"), headings[2])
			must(t, "leave the strip", page.Mouse().Move(5, 5))
			must(t, "the preview goes", expect.Locator(preview).ToHaveCount(0))

			// The submit's target is drawn on both pictures: each label beside its box.
			press(t, page, "ArrowRight", headings[3])
			labels := trace.GetByTestId("target-box").GetByTestId("box-label")
			must(t, "see both targets labelled", expect.Locator(labels).ToHaveCount(2))
			for i := range 2 {
				expectBeside(t, labels.Nth(i))
			}
			if !size.fullSize {
				noScroll(t, page)
			}
		})
	}
	checkA11y(t, page, "the filmstrip")
}

// TestTheFilmstripScrollsALongAttempt opens a stored 60-step lean attempt whose run file
// carried no media, at 1280×720: the strip scrolls rather than shrinking the steps below a
// thumbnail's width, the chosen step stays wholly in view as End, ← and Home move it, and each
// thumbnail says honestly why there is no picture: "no shot" where the lean attempt kept none,
// "no file" where the file is not in the media folder.
func TestTheFilmstripScrollsALongAttempt(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	const n = 60
	a := agent.Attempt{Slug: "long", Title: "A long lean attempt", Terminal: agent.Failed, Reason: "generated", Started: time.Now(), EvidenceLevel: agent.EvidenceLean}
	for k := range n {
		shot := ""
		if k%10 == 9 { // lean: a screenshot only where something went wrong
			shot = fmt.Sprintf("shots/%d.jpg", k)
		}
		a.Steps = append(a.Steps, agent.Step{Index: k, StartMS: int64(k) * 100, DurationMS: 80,
			Before:   agent.Sample{AtMS: int64(k) * 100},
			After:    agent.Sample{AtMS: int64(k)*100 + 80, Screenshot: shot},
			Action:   agent.Action{ID: fmt.Sprint("s", k), Description: fmt.Sprintf("Generated action %d", k+1), Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Next"}},
			Decision: agent.Decision{Class: agent.ClassPrepare, Admission: agent.Allow, Reason: "generated"}})
	}
	run := agent.Run{ID: "20260101-000000-long", Task: "booking", Created: time.Now(), Source: "long.json", Attempts: []agent.Attempt{a}}
	must(t, "store the run", st.SaveImported(run))
	page := openPage(t, srv)
	resize(t, page, 1280, 720)
	_, err := page.Goto(srv.URL + "/#/run/" + run.ID + "/attempt/long/step/1")
	must(t, "open the attempt", err)
	expectText(t, page.GetByTestId("step-heading"), "Step 1 of 60: Generated action 1")
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
	strip := trace.GetByRole("listbox", playwright.LocatorGetByRoleOptions{Name: "Timeline marks"})
	selected := strip.GetByRole("option", playwright.LocatorGetByRoleOptions{Selected: playwright.Bool(true)})
	stepLane := trace.GetByTestId("step-lane")

	expectShownInStrip(t, selected)
	scrolls, err := strip.Evaluate(`s => s.parentElement.scrollWidth > s.parentElement.clientWidth`, nil)
	must(t, "measure the strip", err)
	if scrolls != true {
		t.Error("60 steps fit the strip at 1280×720: each is narrower than a thumbnail")
	}
	for _, k := range []struct{ key, step string }{{"End", "60"}, {"ArrowLeft", "59"}, {"Home", "1"}} {
		press(t, page, k.key, fmt.Sprintf("Step %s of 60: Generated action %s", k.step, k.step))
		must(t, "see the step chosen on the strip", expect.Locator(selected).ToHaveAccessibleName(regexp.MustCompile(`^Step `+k.step+`: `)))
		expectShownInStrip(t, selected)
	}
	must(t, "see a lean step say it kept no screenshot", expect.Locator(stepLane.GetByRole("option", playwright.LocatorGetByRoleOptions{Name: "Step 1: "}).GetByText("no shot")).ToBeVisible())
	must(t, "see a missing file said", expect.Locator(stepLane.GetByRole("option", playwright.LocatorGetByRoleOptions{Name: "Step 10: "}).GetByText("no file")).ToBeVisible())
	noScroll(t, page)
}

// TestBoxLabelsStayClear runs "Renamed button, exact names", whose miss draws its nearest
// candidates on the pictures, at 1280×720 and 1920×1080: no label covers any box, its own or
// another's, and no two labels overlap.
func TestBoxLabelsStayClear(t *testing.T) {
	page := openPage(t, newServer(t))
	runAttempt(t, page, "Renamed button, exact names", "failed")
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
		resize(t, page, size[0], size[1])
		frames := trace.GetByTestId("shot-frame")
		must(t, "see the candidates drawn", expect.Locator(trace.GetByTestId("candidate-box").First()).ToBeVisible())
		count, err := frames.Count()
		must(t, "count the pictures", err)
		for i := range count {
			out, err := frames.Nth(i).Evaluate(`async (f) => {
				const labels = () => [...f.querySelectorAll('[data-testid="box-label"]')];
				for (let k = 0; k < 60 && labels().some((l) => l.style.bottom !== "auto"); k++) await new Promise((ok) => requestAnimationFrame(ok));
				const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
				const boxes = [...f.querySelectorAll(".shot-box")].map((b) => b.getBoundingClientRect());
				const ls = labels().map((l) => [l.textContent, l.getBoundingClientRect()]);
				const bad = [];
				ls.forEach(([name, r], i) => {
					if (boxes.some((b) => hit(r, b))) bad.push(name + " covers a box");
					if (ls.some(([, o], j) => j !== i && hit(r, o))) bad.push(name + " overlaps another label");
				});
				return [ls.length, bad.join("; ")];
			}`, nil)
			must(t, "measure the labels", err)
			got := out.([]any)
			if toFloat(got[0]) < 2 || got[1] != "" {
				t.Errorf("at %d×%d, picture %d: %.0f labels; %v", size[0], size[1], i+1, toFloat(got[0]), got[1])
			}
		}
	}
	snap(t, page, "near-miss-labels")
}

// thumbnailsHeight waits, a bounded number of frames, for every image in l to load and reach
// least px tall, and returns the shortest one's height (0 when one has not loaded).
func thumbnailsHeight(t *testing.T, l playwright.Locator, least float64) float64 {
	t.Helper()
	must(t, "see the pictures", expect.Locator(l.Locator("img").First()).ToBeVisible())
	h, err := l.Evaluate(`async (el, least) => {
		const measure = () => Math.min(...[...el.querySelectorAll("img")].map((i) => (i.complete && i.naturalWidth > 0 ? i.getBoundingClientRect().height : 0)));
		for (let k = 0; k < 120 && measure() < least; k++) await new Promise((ok) => requestAnimationFrame(ok));
		return measure();
	}`, least)
	must(t, "measure the pictures", err)
	return toFloat(h)
}

// expectShownInStrip fails unless the option is wholly inside the strip's visible part.
func expectShownInStrip(t *testing.T, option playwright.Locator) {
	t.Helper()
	must(t, "see the chosen step", expect.Locator(option).ToBeInViewport())
	out, err := option.Evaluate(`o => {
		const s = o.closest(".strip-scroll").getBoundingClientRect(), r = o.getBoundingClientRect();
		return r.left >= s.left - 1 && r.right <= s.right + 1;
	}`, nil)
	must(t, "measure the chosen step in the strip", err)
	if out != true {
		t.Error("the chosen step's cell is not wholly in the strip's view")
	}
}

// expectOwnLane fails unless every mark on the event lane lies under the step lane, apart
// from it, and is smaller than a step's cell.
func expectOwnLane(t *testing.T, steps, events playwright.Locator) {
	t.Helper()
	must(t, "see the app's events", expect.Locator(events.GetByRole("option").First()).ToBeVisible())
	out, err := events.Evaluate(`(lane, steps) => {
		const s = steps.getBoundingClientRect();
		const cell = steps.querySelector('[role="option"]').getBoundingClientRect();
		const ticks = [...lane.querySelectorAll('[role="option"]')].map((o) => o.getBoundingClientRect());
		const bad = ticks.filter((r) => r.top < s.bottom || r.height >= cell.height / 2 || r.width >= cell.width / 2);
		return [ticks.length, bad.length];
	}`, mustHandle(t, steps))
	must(t, "measure the lanes", err)
	got := out.([]any)
	if n, bad := toFloat(got[0]), toFloat(got[1]); n < 2 || bad > 0 {
		t.Errorf("of %.0f marks on the event lane %.0f overlap the step lane or are not smaller than a step", n, bad)
	}
}

// mustHandle is l's element, to pass to an evaluation.
func mustHandle(t *testing.T, l playwright.Locator) playwright.ElementHandle {
	t.Helper()
	h, err := l.ElementHandle()
	must(t, "find an element", err)
	return h
}

// expectBeside fails unless the label, once placed, lies wholly outside the box it labels.
func expectBeside(t *testing.T, label playwright.Locator) {
	t.Helper()
	must(t, "see the label", expect.Locator(label).ToBeVisible())
	out, err := label.Evaluate(`async (l) => {
		for (let k = 0; k < 60 && l.style.bottom !== "auto"; k++) await new Promise((ok) => requestAnimationFrame(ok));
		const a = l.getBoundingClientRect(), b = l.parentElement.getBoundingClientRect();
		const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
		return [l.style.bottom === "auto", w > 0.5 && h > 0.5, a.height];
	}`, nil)
	must(t, "measure the label", err)
	got := out.([]any)
	if got[0] != true || got[1] != false || toFloat(got[2]) < 10 {
		t.Errorf("the target's label (placed %v, %.0f px tall) covers its box: %v", got[0], toFloat(got[2]), got[1])
	}
}
