package uitest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// Columns of the attempts table after the title, as the frontend orders them.
const (
	colSaved = iota
	colNotice
	colParallax
	colGate
	colTerminal
)

// row is the attempts table's row for the attempt titled title.
func row(page playwright.Page, title string) playwright.Locator {
	return page.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Attempts"}).
		GetByRole("row", playwright.LocatorGetByRoleOptions{Name: title, Exact: playwright.Bool(true)})
}

// cell is one verdict cell of r, by column.
func cell(r playwright.Locator, col int) playwright.Locator {
	return r.GetByRole("cell").Nth(col)
}

// button is the page's button named name, exactly.
func button(page playwright.Page, name string) playwright.Locator {
	return page.GetByRole("button", playwright.PageGetByRoleOptions{Name: name, Exact: playwright.Bool(true)})
}

// clickTimeout, in ms, bounds one of runAttempt's clicks, which a loaded machine makes slow;
// a click the table changed under is tried again.
const clickTimeout = 5000

// runAttempt clicks the attempt's ▶ button, which runs it, and waits until the row shows how
// it ended. On a short window whose attempts table is folded to the selected row, it unfolds
// the table first and folds it again after, as a user would. The table folds and unfolds with
// the window's height, which the app reads a moment after a resize, so a click the table
// changed under is tried again. The ▶ is disabled while a run goes, until the run before has
// saved its media: it first waits for that run's end, Stop disabled.
func runAttempt(t *testing.T, page playwright.Page, title, terminal string) playwright.Locator {
	t.Helper()
	must(t, "see no run going, Stop disabled", expect.Locator(button(page, "Stop")).ToBeDisabled(
		playwright.LocatorAssertionsToBeDisabledOptions{Timeout: playwright.Float(runTimeout)}))
	r, run, unfold := row(page, title), button(page, "Run "+title), button(page, "All attempts (A)")
	unfolded := false
	for k := 1; ; k++ {
		must(t, "see ▶ of "+title+" or the button that unfolds the table", expect.Locator(run.Or(unfold).First()).ToBeVisible())
		var err error
		if !isVisible(run) && isVisible(unfold) {
			if err = unfold.Click(playwright.LocatorClickOptions{Timeout: playwright.Float(clickTimeout)}); err == nil && !unfolded {
				unfolded = true
				defer func() { must(t, "fold the attempts table", button(page, "Fold to this attempt (A)").Click()) }()
			}
		} else if err = run.Click(playwright.LocatorClickOptions{Timeout: playwright.Float(clickTimeout)}); err == nil {
			break
		}
		if k == 5 {
			must(t, "click ▶ of "+title, fmt.Errorf("the table changed under every click: %v", err))
		}
	}
	must(t, title+" ends "+terminal, expect.Locator(cell(r, colTerminal)).ToHaveText(terminal,
		playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(runTimeout)}))
	return r
}

// isVisible reports whether l is on the page and shown, at once, without waiting.
func isVisible(l playwright.Locator) bool {
	v, err := l.IsVisible()
	return err == nil && v
}

// expectText waits until l shows exactly text.
func expectText(t *testing.T, l playwright.Locator, text string) {
	t.Helper()
	must(t, "see "+text, expect.Locator(l).ToHaveText(text))
}

// expectContains waits until l's text contains text.
func expectContains(t *testing.T, l playwright.Locator, text string) {
	t.Helper()
	must(t, "see "+text, expect.Locator(l).ToContainText(text))
}

// press sends a key to the page and waits until the step heading reads heading.
func press(t *testing.T, page playwright.Page, key, heading string) {
	t.Helper()
	must(t, "press "+key, page.Keyboard().Press(key))
	expectText(t, page.GetByTestId("step-heading"), heading)
}

// download runs click and returns the path of the file it downloads.
func download(t *testing.T, page playwright.Page, click func() error) string {
	t.Helper()
	d, err := page.ExpectDownload(click)
	if err != nil {
		t.Fatalf("waiting for a download: %v", err)
	}
	path := filepath.Join(t.TempDir(), d.SuggestedFilename())
	must(t, "save the download", d.SaveAs(path))
	return path
}

// exportAs opens Export, picks choice and returns the downloaded file's path.
func exportAs(t *testing.T, page playwright.Page, choice string) string {
	t.Helper()
	must(t, "open Export", button(page, "Export").Click())
	return download(t, page, func() error { return button(page, choice).Click() })
}

// importFile picks path in the browser's file input, as Import does.
func importFile(t *testing.T, page playwright.Page, path string) {
	t.Helper()
	must(t, "import "+filepath.Base(path), page.GetByTestId("import-file").SetInputFiles(path))
}

// loadedVideo waits until the attempt's video has loaded its metadata with a positive
// duration, and returns the element's locator.
func loadedVideo(t *testing.T, page playwright.Page) playwright.Locator {
	t.Helper()
	must(t, "show the video", button(page, "Video").Click())
	v := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"}).GetByTestId("attempt-video")
	must(t, "see the recorded video", expect.Locator(v).ToHaveAccessibleName("Recorded video"))
	h, err := v.ElementHandle()
	if err != nil {
		t.Fatalf("finding the video element: %v", err)
	}
	if _, err := page.WaitForFunction("v => v.readyState >= 1 && v.duration > 0", h); err != nil {
		t.Fatalf("the recorded video did not load (%s): %v", mediaState(page, v), err)
	}
	return v
}

// mediaState describes a media element's state for a failure message.
func mediaState(page playwright.Page, v playwright.Locator) any {
	s, err := v.Evaluate("v => `src=${v.currentSrc} readyState=${v.readyState} error=${v.error?.code}`", nil)
	if err != nil {
		return err
	}
	return s
}

// snap saves a screenshot of the page as name.png in $UITEST_SCREENSHOTS, when it is set.
func snap(t *testing.T, page playwright.Page, name string) {
	t.Helper()
	dir := os.Getenv("UITEST_SCREENSHOTS")
	if dir == "" {
		return
	}
	_, err := page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(filepath.Join(dir, name+".png")), FullPage: playwright.Bool(true)})
	must(t, "screenshot "+name, err)
}

// must fails the test with what it was doing when err is not nil.
func must(t *testing.T, doing string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", doing, err)
	}
}

// number matches a decimal number such as the Jaccard distance "0.667".
var number = regexp.MustCompile(`^\d+\.\d{3}`)

// axePath is axe-core's script in the frontend's npm packages, relative to this package.
const axePath = "../../frontend/node_modules/axe-core/axe.min.js"

// checkA11y runs axe-core on the page as it is now and fails the test on any violation,
// naming each rule and the elements it found.
func checkA11y(t *testing.T, page playwright.Page, where string) {
	t.Helper()
	if _, err := os.Stat(axePath); err != nil {
		t.Fatalf("axe-core is missing (%v): run `npm ci` in frontend/", err)
	}
	if _, err := page.AddScriptTag(playwright.PageAddScriptTagOptions{Path: playwright.String(axePath)}); err != nil {
		t.Fatalf("injecting axe-core: %v", err)
	}
	out, err := page.Evaluate(`async () => {
		const r = await axe.run(document, { resultTypes: ["violations"] });
		return JSON.stringify(r.violations.map(v => ({ id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(" ")) })));
	}`)
	must(t, "run axe-core", err)
	var violations []struct {
		ID, Help string
		Nodes    []string
	}
	must(t, "read axe-core's answer", json.Unmarshal([]byte(out.(string)), &violations))
	for _, v := range violations {
		t.Errorf("%s: axe-core %s (%s) at %s", where, v.ID, v.Help, strings.Join(v.Nodes, ", "))
	}
}

// resize sets the window's size and waits until the page has it and the app has drawn it: the
// app reads the window's height in a resize listener and draws it on a later frame, so a
// measure or a decision taken at once could see the layout of the size before.
func resize(t *testing.T, page playwright.Page, width, height int) {
	t.Helper()
	must(t, fmt.Sprintf("resize the window to %d×%d", width, height), page.SetViewportSize(width, height))
	_, err := page.WaitForFunction(`([w, h]) => innerWidth === w && innerHeight === h`, []int{width, height},
		playwright.PageWaitForFunctionOptions{Timeout: playwright.Float(10_000)})
	must(t, fmt.Sprintf("wait for the window at %d×%d", width, height), err)
	turned(t, page)
}

// turned waits until the page's event loop has turned twice, drawing a frame each time (or
// 10 s have passed): what was queued before, a task or a frame's work, has had its turn.
func turned(t *testing.T, page playwright.Page) {
	t.Helper()
	_, err := page.Evaluate(`() => {
		const frame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
		return Promise.race([frame().then(frame), new Promise((ok) => setTimeout(ok, 10000))]);
	}`)
	must(t, "let the page's event loop turn", err)
}
