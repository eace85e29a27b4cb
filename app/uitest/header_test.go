package uitest

import (
	"fmt"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// headerProblems lists what is wrong with the app bar as drawn: a control outside the window
// or the bar, two controls overlapping, the app's name cut, the window scrolling sideways, and
// with oneLine, controls on more than one line.
const headerProblems = `(oneLine) => {
	const bar = document.querySelector(".app-header").getBoundingClientRect();
	const controls = [...document.querySelectorAll(".app-header :is(button, select, input:not([hidden]), h1)")]
		.map((e) => [e.tagName === "H1" ? "the name" : (e.getAttribute("aria-label") || e.labels?.[0]?.textContent.trim() || e.textContent.trim() || e.tagName), e.getBoundingClientRect(), e]);
	const problems = [];
	for (const [name, r] of controls) {
		if (r.width === 0 || r.height === 0) problems.push(name + " is not drawn");
		if (r.left < 0 || r.right > innerWidth || r.left < bar.left || r.right > bar.right || r.top < bar.top || r.bottom > bar.bottom) {
			problems.push(name + " is outside the window or the bar: " + JSON.stringify(r));
		}
	}
	for (let i = 0; i < controls.length; i++) {
		for (let j = i + 1; j < controls.length; j++) {
			const [a, ra] = controls[i], [b, rb] = controls[j];
			if (ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1 && rb.top < ra.bottom - 1) problems.push(a + " overlaps " + b);
		}
	}
	const name = document.querySelector(".app-header h1");
	if (name.scrollWidth > name.clientWidth || name.getBoundingClientRect().right > name.parentElement.getBoundingClientRect().right) problems.push("the name is cut");
	const page = document.documentElement;
	if (page.scrollWidth > page.clientWidth) problems.push("the window scrolls sideways by " + (page.scrollWidth - page.clientWidth) + " px");
	if (oneLine) {
		const middles = controls.map(([, r]) => (r.top + r.bottom) / 2);
		if (Math.max(...middles) - Math.min(...middles) > 6) problems.push("the bar takes more than one line: " + bar.height + " px high");
	}
	return problems;
}`

// TestTheToolbarFitsNarrowWindows checks the app bar, with an attempt's trace shown, at 1000×700 and
// 1100×700 (the run controls on a second line) and at 1280×720 and 1920×1080 (one line):
// every control whole in the window and the bar, none over another, the app's name whole,
// the window never scrolling, and from 1280 px on the task's intent whole beside the attempts'
// heading.
func TestTheToolbarFitsNarrowWindows(t *testing.T) {
	srv, st, dir := newServerWithStore(t)
	commandLine(t, st, dir, "run", "--lab", "booking", "--attempt", "notice-nothing-saved")
	page := openPage(t, srv)
	must(t, "see a task chosen", expect.Locator(button(page, "Run all")).ToBeEnabled())
	must(t, "open the attempt", row(page, "Notice shown, nothing saved").Click())
	must(t, "see its trace", expect.Locator(page.GetByTestId("step-heading")).ToBeVisible())
	for _, s := range []struct {
		w, h    int
		oneLine bool
	}{{1000, 700, false}, {1100, 700, false}, {1280, 720, true}, {1920, 1080, true}} {
		resize(t, page, s.w, s.h)
		if _, err := page.WaitForFunction(`(oneLine) => (`+headerProblems+`)(oneLine).length === 0`, s.oneLine,
			playwright.PageWaitForFunctionOptions{Timeout: playwright.Float(10_000)}); err != nil {
			got, _ := page.Evaluate(headerProblems, s.oneLine)
			t.Errorf("at %d×%d the app bar is wrong: %v (%v)", s.w, s.h, got, err)
		}
		if s.oneLine { // the task's intent, beside the attempts' heading, whole from 1280 px on
			intent := page.Locator(".attempts-panel .intent")
			must(t, "read the intent", expect.Locator(intent).ToHaveText(`Reserve "Spectral scan" in room "north".`))
			if _, err := intent.Evaluate(`(e) => new Promise((ok, no) => { const t0 = performance.now(); const f = () => e.scrollWidth <= e.clientWidth ? ok() : performance.now() - t0 > 10000 ? no(new Error(e.scrollWidth + " px of text in " + e.clientWidth)) : requestAnimationFrame(f); f(); })`, nil); err != nil {
				t.Errorf("at %d×%d the task's intent is cut: %v", s.w, s.h, err)
			}
		}
		noScroll(t, page)
		snap(t, page, fmt.Sprintf("header-%dx%d", s.w, s.h))
	}
}
