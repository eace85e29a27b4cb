package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/store"
)

// The UI's scale targets (issue 15).
const (
	bigSteps     = 10_000
	historyRuns  = 1_000
	openTarget   = time.Second
	frameMS      = 1000.0 / 60
	historyLimit = 300 * time.Millisecond
)

// BenchmarkUIScale generates a data folder holding a run of 10,000 steps and 1,000 other
// runs, serves it with the observatory binary's `serve`, and measures in headless Chromium:
// how long the long run takes to open at its first step from a deep link, how long each
// ←/→ press takes until the next frame is drawn, and how long the history of 1,001 runs
// takes to list after a load. It prints each number and its ratio to the target. Run it
// through bench/ui.sh, which builds the frontend first.
func BenchmarkUIScale(b *testing.B) {
	dir := b.TempDir()
	bigID := generateStore(b, dir)
	url := serve(b, dir)
	page := openBrowserPage(b)

	for b.Loop() {
		open := measureOpen(b, page, url, bigID)
		steps := measureSteps(b, page, 200)
		listed, api := measureHistory(b, page, url)
		get := apiMS(b, page, "Get", id(bigID))
		replay := apiMS(b, page, "Replay", id(bigID), "long")
		b.ReportMetric(float64(open.Milliseconds()), "open-ms")
		b.ReportMetric(steps[len(steps)/2], "step-p50-ms")
		b.ReportMetric(steps[len(steps)*95/100], "step-p95-ms")
		b.ReportMetric(float64(listed.Milliseconds()), "history-ms")
		fmt.Printf("\nUI at scale (%d-step run, %d runs in the history)\n", bigSteps, historyRuns+1)
		fmt.Printf("  open the long run at step 1   %7.0f ms   %.2fx of the %v target\n", ms(open), ms(open)/ms(openTarget), openTarget)
		fmt.Printf("  ←/→ press to next frame, p50  %7.1f ms   %.2f frames\n", steps[len(steps)/2], steps[len(steps)/2]/frameMS)
		fmt.Printf("  ←/→ press to next frame, p95  %7.1f ms   %.2f frames\n", steps[len(steps)*95/100], steps[len(steps)*95/100]/frameMS)
		fmt.Printf("  history listed after a load   %7.0f ms   %.2fx of the %v target (its API call: %.0f ms)\n", ms(listed), ms(listed)/ms(historyLimit), historyLimit, api)
		fmt.Printf("  of opening: Runs.Get %.0f ms, Runs.Replay %.0f ms (the long run)\n", get, replay)
	}
}

// id is a call argument.
func id(s string) any { return s }

// apiMS times one service call made from the page, in ms.
func apiMS(b *testing.B, page playwright.Page, method string, args ...any) float64 {
	b.Helper()
	out, err := page.Evaluate(`async ([method, args]) => {
		const t0 = performance.now();
		const r = await fetch("/api/Runs/" + method, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args) });
		await r.json();
		return performance.now() - t0;
	}`, []any{method, args})
	if err != nil {
		b.Fatal(err)
	}
	if f, ok := out.(float64); ok {
		return f
	}
	return float64(out.(int))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// generateStore writes the long run and the history into a fresh store in dir, as imports,
// and returns the long run's id.
func generateStore(b *testing.B, dir string) string {
	b.Helper()
	st, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	for k := range historyRuns {
		run := agent.Run{ID: fmt.Sprintf("20250101-%06d-hist", k), Task: "booking", Created: now.Add(-time.Duration(k) * time.Minute), Source: fmt.Sprintf("history-%d.json", k),
			Attempts: []agent.Attempt{{Slug: "saves-normally", Title: "Saves normally", Terminal: agent.Failed, Reason: "generated", Started: now}}}
		if err := st.SaveImported(run); err != nil {
			b.Fatal(err)
		}
	}
	long := agent.Attempt{Slug: "long", Title: "A long attempt", Terminal: agent.Failed, Reason: "generated", Started: now}
	for k := range bigSteps {
		sample := agent.Sample{AtMS: int64(k) * 50, URL: "http://127.0.0.1/", Title: "Lab reservations"}
		long.Steps = append(long.Steps, agent.Step{Index: k, StartMS: int64(k) * 50, DurationMS: 40, Before: sample, After: sample,
			Action:   agent.Action{ID: fmt.Sprint("s", k), Description: fmt.Sprintf("Generated action %d", k+1), Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Next"}},
			Decision: agent.Decision{Class: agent.ClassPrepare, Admission: agent.Allow, Reason: "generated"}})
	}
	id := "20260101-000000-long"
	if err := st.SaveImported(agent.Run{ID: id, Task: "booking", Created: now, Source: "long.json", Attempts: []agent.Attempt{long}}); err != nil {
		b.Fatal(err)
	}
	return id
}

// serve builds the observatory binary (with the frontend built into it) and serves dir with
// it, returning the address it prints, token included.
func serve(b *testing.B, dir string) string {
	b.Helper()
	if _, err := os.Stat(filepath.Join("..", "frontend", "dist", "index.html")); err != nil {
		b.Fatal("the frontend is not built: run `npm run build` in frontend/ (bench/ui.sh does)")
	}
	bin := filepath.Join(b.TempDir(), "observatory")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building observatory: %v\n%s", err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve", "--data-dir", dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("starting observatory serve: %v", err)
	}
	b.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			line <- strings.TrimSpace(sc.Text())
		}
		close(line)
	}()
	select {
	case url, ok := <-line:
		if !ok || !strings.HasPrefix(url, "http://") {
			b.Fatalf("observatory serve printed no address (%q)", url)
		}
		return url
	case <-time.After(30 * time.Second):
		b.Fatal("observatory serve printed no address within 30 s")
	}
	return ""
}

// openBrowserPage opens a page in headless Chromium at a desktop window's size.
func openBrowserPage(b *testing.B) playwright.Page {
	b.Helper()
	bctx, err := browsertest.Launch(b).Playwright().NewContext(playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1400, Height: 1000}})
	if err != nil {
		b.Fatal(err)
	}
	bctx.SetDefaultTimeout(30_000)
	page, err := bctx.NewPage()
	if err != nil {
		b.Fatal(err)
	}
	return page
}

// measureOpen loads the window afresh at the long run's first step, from its deep link, and
// returns the time from the start of the load until that step's heading is shown. The first
// load (which sets the session cookie) is not timed.
func measureOpen(b *testing.B, page playwright.Page, url, id string) time.Duration {
	b.Helper()
	if _, err := page.Goto(url); err != nil {
		b.Fatal(err)
	}
	if _, err := page.Goto("about:blank"); err != nil {
		b.Fatal(err)
	}
	if _, err := page.Goto(strings.SplitN(url, "?", 2)[0] + "#/run/" + id + "/attempt/long/step/1"); err != nil {
		b.Fatal(err)
	}
	return shownAt(b, page, `(want) => document.querySelector('[data-testid="step-heading"]')?.textContent === want`,
		fmt.Sprintf("Step 1 of %d: Generated action 1", bigSteps))
}

// shownAt waits, checking once a frame, until the page's predicate holds for arg, and returns
// when it first did, from the start of the page's load.
func shownAt(b *testing.B, page playwright.Page, predicate string, arg any) time.Duration {
	b.Helper()
	h, err := page.WaitForFunction(`(arg) => (`+predicate+`)(arg) && performance.now()`, arg, playwright.PageWaitForFunctionOptions{Polling: "raf"})
	if err != nil {
		b.Fatalf("waiting for %s: %v", predicate, err)
	}
	v, err := h.JSONValue()
	if err != nil {
		b.Fatal(err)
	}
	switch t := v.(type) {
	case float64:
		return time.Duration(t * float64(time.Millisecond))
	case int:
		return time.Duration(t) * time.Millisecond
	}
	b.Fatalf("the page answered %v, not a time", v)
	return 0
}

// measureSteps presses → n times inside the page and returns each press's time, in ms, until
// the frame after it is drawn, sorted; it checks the heading moved by n steps.
func measureSteps(b *testing.B, page playwright.Page, n int) []float64 {
	b.Helper()
	out, err := page.Evaluate(`async (n) => {
		const times = [];
		for (let i = 0; i < n; i++) {
			const t0 = performance.now();
			document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
			await new Promise((r) => requestAnimationFrame(() => r()));
			times.push(performance.now() - t0);
		}
		return { times, heading: document.querySelector('[data-testid="step-heading"]').textContent };
	}`, n)
	if err != nil {
		b.Fatal(err)
	}
	res := out.(map[string]any)
	if want := fmt.Sprintf("Step %d of %d:", n+1, bigSteps); !strings.HasPrefix(res["heading"].(string), want) {
		b.Fatalf("after %d presses the heading reads %q, want %q…", n, res["heading"], want)
	}
	var times []float64
	for _, v := range res["times"].([]any) {
		switch t := v.(type) {
		case float64:
			times = append(times, t)
		case int:
			times = append(times, float64(t))
		}
	}
	sort.Float64s(times)
	return times
}

// measureHistory loads the window afresh and returns the time from the start of the load
// until the history lists every run, and the History call's own time in ms, measured in the
// page.
func measureHistory(b *testing.B, page playwright.Page, url string) (time.Duration, float64) {
	b.Helper()
	if _, err := page.Goto("about:blank"); err != nil {
		b.Fatal(err)
	}
	if _, err := page.Goto(strings.SplitN(url, "?", 2)[0]); err != nil {
		b.Fatal(err)
	}
	listed := shownAt(b, page, `(want) => document.querySelector('nav[aria-label="Run history"] [role="status"]')?.textContent === want`,
		fmt.Sprintf("%d runs", historyRuns+1))
	out, err := page.Evaluate(`async () => {
		const t0 = performance.now();
		const r = await fetch("/api/Runs/History", { method: "POST", headers: { "Content-Type": "application/json" }, body: "[]" });
		await r.json();
		return performance.now() - t0;
	}`)
	if err != nil {
		b.Fatal(err)
	}
	api, ok := out.(float64)
	if !ok {
		api = float64(out.(int))
	}
	return listed, api
}
