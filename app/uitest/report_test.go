package uitest

import (
	"bytes"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/app"
	"observatory/backend/agent"
)

// hostile is text a stranger's run may carry, meant to run in whoever opens its report.
const hostile = `<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">`

// TestReportOpensOfflineAndRunsNothing stores a run whose title, evidence and answer carry
// script, with one screenshot, exports its report with the Export menu, and opens the file
// in a browser with the network off: the screenshot shows, the text is shown as text, and
// nothing of the run runs. The step's recorded target box and candidate are drawn over the
// screenshot where they fall once scaled onto it, without a script.
func TestReportOpensOfflineAndRunsNothing(t *testing.T) {
	srv, st, dataDir := newServerWithStore(t)
	run := hostileRun()
	must(t, "store the run", st.SaveImported(run))
	shots := filepath.Join(app.MediaRoot(dataDir), run.ID, "shots")
	must(t, "make the media folder", os.MkdirAll(shots, 0o755))
	must(t, "write the screenshot", os.WriteFile(filepath.Join(shots, "a.jpg"), grayJPEG(t), 0o644))

	page := openPage(t, srv)
	history := page.GetByRole("navigation", playwright.PageGetByRoleOptions{Name: "Run history"})
	must(t, "open the run", history.GetByTestId("run-"+run.ID).GetByRole("button").First().Click())
	path := exportAs(t, page, "Export report")
	if filepath.Ext(path) != ".html" {
		t.Fatalf("the report downloaded as %s", filepath.Base(path))
	}

	bctx, err := shared.NewContext(playwright.BrowserNewContextOptions{Offline: playwright.Bool(true)})
	must(t, "open an offline context", err)
	t.Cleanup(func() { bctx.Close() })
	report, err := bctx.NewPage()
	must(t, "open a page", err)
	dialogs := 0
	report.OnDialog(func(d playwright.Dialog) { dialogs++; _ = d.Dismiss() })
	_, err = report.Goto("file://" + path)
	must(t, "open the report offline", err)

	heading := report.GetByRole("heading", playwright.PageGetByRoleOptions{Level: playwright.Int(2)})
	must(t, "see the title as text", expect.Locator(heading).ToContainText(hostile))
	// The raw answer shows twice: under its condition, and among the oracle's answers.
	must(t, "see the raw answer as text", expect.Locator(report.Locator("pre").Filter(playwright.LocatorFilterOptions{HasText: "</script><script>window.pwned = 3"})).ToHaveCount(2))
	img := report.GetByRole("img", playwright.PageGetByRoleOptions{Name: "Step 1, before"})
	must(t, "see the screenshot", expect.Locator(img).ToBeVisible())
	h, err := img.ElementHandle()
	must(t, "find the screenshot", err)
	if _, err := report.WaitForFunction("i => i.complete && i.naturalWidth === 500", h); err != nil {
		t.Errorf("the inlined screenshot did not load offline: %v", err)
	}
	step := run.Attempts[0].Steps[0]
	expectOver(t, "the report's target box", img, report.Locator(".box.target"), *step.TargetBox)
	candidate := report.Locator(".box.candidate")
	must(t, "see the candidate's label as text", expect.Locator(candidate).ToContainText(hostile))
	expectOver(t, "the report's candidate box", img, candidate, step.Candidates[0].Box)
	pwned, err := report.Evaluate("() => window.pwned === undefined ? 'no' : String(window.pwned)")
	must(t, "read window.pwned", err)
	if pwned != "no" || dialogs != 0 {
		t.Errorf("the run's content ran in its report: window.pwned = %v, %d dialogs", pwned, dialogs)
	}
	snap(t, report, "report")
}

// hostileRun is one failed attempt of one step, with hostile text wherever a run has text.
func hostileRun() agent.Run {
	v := agent.Verdicts{
		Truth:   agent.Signal{ID: "truth", Label: "stored", Verdict: agent.Verdict{Evidence: hostile}},
		Signals: []agent.Signal{{ID: "banner", Label: hostile, Verdict: agent.Verdict{Done: true, Evidence: hostile}}},
		Gate:    agent.NewGate([]agent.Condition{{ID: "api", Label: hostile, Verdict: agent.Unconfirmed(hostile)}}),
	}
	step := agent.Step{Action: agent.Action{ID: "save", Description: hostile, Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: hostile}},
		Decision: agent.Decision{Class: agent.ClassCommit, Admission: agent.Allow, Reason: hostile},
		Before:   agent.Sample{Screenshot: "shots/a.jpg"}, After: agent.Sample{Screenshot: "shots/a.jpg"}, Error: hostile,
		TargetBox: &agent.Box{X: 250, Y: 70, Width: 100, Height: 35, ViewportWidth: 1000, ViewportHeight: 700},
		Candidates: []agent.Candidate{{Role: "button", Name: hostile, Similarity: 0.5,
			Box: agent.Box{X: 600, Y: 350, Width: 200, Height: 70, ViewportWidth: 1000, ViewportHeight: 700}}}}
	return agent.Run{ID: "20261201-hostile", Task: "notes", Created: time.Now(), Source: "stranger.json",
		Attempts: []agent.Attempt{{Slug: "evil", Title: hostile, Terminal: agent.Failed, Reason: hostile, Verdicts: v,
			Config: agent.DefaultConfig(), Steps: []agent.Step{step},
			Answers: []agent.Answer{{Condition: "api", Kind: "http", Raw: []byte(`{"body": "</pre></script><script>window.pwned = 3</script>"}`)}},
			Started: time.Now()}}}
}

// grayJPEG is a 500×350 grey JPEG: a screenshot of a 1000×700 viewport, at half size.
func grayJPEG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	must(t, "encode a JPEG", jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 500, 350)), nil))
	return b.Bytes()
}
