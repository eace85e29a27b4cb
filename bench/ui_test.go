package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/browser/browsertest"
)

// The UI's scale targets (issue 15).
const (
	bigSteps     = 10_000
	historyRuns  = 1_000
	openTarget   = time.Second
	frameMS      = 1000.0 / 60
	historyLimit = 300 * time.Millisecond
	selectLimit  = 300 * time.Millisecond
)

// BenchmarkUIScale generates a data folder holding a run with an attempt of 10,000 steps (and
// one of 100) and 1,000 other runs, serves it with the observatory binary's `serve`, and
// measures in headless Chromium what a user sees: how long the long attempt takes to open at
// its first step from a deep link (the step's heading, then its screenshot and its details
// drawn; then its step list and timeline), how long each ←/→ press takes until the next frame is drawn, the main thread's work
// per press under Chromium's profiler on the long attempt and on the short one (the same when
// nothing costs in proportion to the run), and how long the history of 1,001 runs takes to
// list after a load, and how long opening a run and selecting an attempt takes at 1280×720.
// Opening, listing and selecting are measured three times and the medians reported.
// It prints each number and its ratio to the target. Run it through bench/ui.sh, which builds
// the frontend first.
func BenchmarkUIScale(b *testing.B) {
	load := loadAverage()
	dir := b.TempDir()
	bigID := generateStore(b, dir)
	url := serve(b, dir)
	page := openBrowserPage(b)

	for b.Loop() {
		var opens, heads, fulls, lists, listCalls []float64
		var ways []opening
		for range 3 {
			o := measureOpen(b, page, url, bigID, longSlug)
			heads, opens, fulls, ways = append(heads, ms(o.heading)), append(opens, ms(o.drawn)), append(fulls, ms(o.listed)), append(ways, o)
		}
		sort.Slice(ways, func(i, j int) bool { return ways[i].drawn < ways[j].drawn })
		opened := profiled(b, page, func() { measureOpen(b, page, url, bigID, longSlug) })
		steps := measureSteps(b, page, 200, bigSteps)
		long := profiled(b, page, func() { measureSteps(b, page, 100, bigSteps) })
		measureOpen(b, page, url, bigID, shortSlug)
		short := profiled(b, page, func() { measureSteps(b, page, 50, shortSteps) })
		for range 3 {
			listed, call := measureHistory(b, page, url)
			lists, listCalls = append(lists, ms(listed)), append(listCalls, call)
		}
		var opensRun, selects []float64
		for range 3 {
			o, s := measureSelect(b, page, url, bigID)
			opensRun, selects = append(opensRun, o), append(selects, s)
		}
		selected := profiled(b, page, func() { measureSelect(b, page, url, bigID) })
		header := apiMS(b, page, "Header", bigID)
		summaries := apiMS(b, page, "Summaries", bigID, longSlug)
		window := apiMS(b, page, "Steps", bigID, longSlug, 0, 16)
		replay := apiMS(b, page, "Replay", bigID, longSlug)
		get := apiMS(b, page, "Get", bigID)

		open, listed := median(opens), median(lists)
		p50, p95 := steps[len(steps)/2], steps[len(steps)*95/100]
		perLong, perShort := long.busyMS/100, short.busyMS/50
		b.ReportMetric(open, "open-ms")
		b.ReportMetric(p50, "step-p50-ms")
		b.ReportMetric(p95, "step-p95-ms")
		b.ReportMetric(perLong, "press-busy-ms")
		b.ReportMetric(listed, "history-ms")
		b.ReportMetric(median(opensRun)+median(selects), "open-select-ms")
		fmt.Printf("\nUI at scale (a %d-step attempt, %d runs in the history; load average %s on %d cores)\n", bigSteps, historyRuns+1, load, runtime.NumCPU())
		fmt.Printf("  open the long run at step 1    %7.0f ms   %.2fx of the %v target (heading drawn at %.0f ms; opens %s)\n",
			open, open/ms(openTarget), openTarget, median(heads), list(opens))
		fmt.Printf("    and its step list and timeline %5.0f ms   (%s)\n", median(fulls), list(fulls))
		fmt.Printf("    the median opening: %s\n", ways[1])
		fmt.Printf("  ←/→ press to next frame, p50   %7.1f ms   %.2f frames\n", p50, p50/frameMS)
		fmt.Printf("  ←/→ press to next frame, p95   %7.1f ms   %.2f frames\n", p95, p95/frameMS)
		fmt.Printf("  main thread per press          %7.1f ms   on the %d-step attempt, %.1f ms on the %d-step one: %.2fx (of it GC %.1f ms, %.1f ms)\n",
			perLong, bigSteps, perShort, shortSteps, perLong/perShort, long.gcMS/100, short.gcMS/50)
		fmt.Printf("  history listed after a load    %7.0f ms   %.2fx of the %v target (lists %s; its call %.0f ms)\n",
			listed, listed/ms(historyLimit), historyLimit, list(lists), median(listCalls))
		fmt.Printf("  open a run, select an attempt  %7.0f ms   %.2fx of the %v target at 1280×720 (opened %s, then selected %s)\n",
			median(opensRun)+median(selects), (median(opensRun)+median(selects))/ms(selectLimit), selectLimit, list(opensRun), list(selects))
		fmt.Printf("  calls: History.Header %.0f ms, History.Steps of 16 %.0f ms, History.Summaries (10,000) %.0f ms; off the path: History.Replay %.0f ms (kept), History.Get (the whole run) %.0f ms\n",
			header, window, summaries, replay, get)
		fmt.Printf("  the main thread's busiest functions over 100 presses on the long attempt (self time):\n")
		for _, line := range long.top(8) {
			fmt.Printf("    %s\n", line)
		}
		fmt.Printf("  and over 50 presses on the short one:\n")
		for _, line := range short.top(5) {
			fmt.Printf("    %s\n", line)
		}
		fmt.Printf("  and while opening the long attempt (%.0f ms busy, GC %.0f ms):\n", opened.busyMS, opened.gcMS)
		for _, line := range opened.top(8) {
			fmt.Printf("    %s\n", line)
		}
		fmt.Printf("  and while opening a run and selecting an attempt, up to the trace's first paint (%.0f ms busy, GC %.0f ms):\n", selected.busyMS, selected.gcMS)
		for _, line := range selected.top(8) {
			fmt.Printf("    %s\n", line)
		}
	}
}

// apiMS times one History call made from the page, in ms.
func apiMS(b *testing.B, page playwright.Page, method string, args ...any) float64 {
	b.Helper()
	if args == nil {
		args = []any{}
	}
	out, err := page.Evaluate(`async ([method, args]) => {
		const t0 = performance.now();
		const r = await fetch("/api/History/" + method, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args) });
		if (!r.ok) throw new Error(method + ": HTTP " + r.status + ": " + (await r.text()));
		await r.json();
		return performance.now() - t0;
	}`, []any{method, args})
	if err != nil {
		b.Fatal(err)
	}
	return num(out)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// median is the middle of xs.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	return s[len(s)/2]
}

// list is xs as "a, b, c ms".
func list(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.0f", x)
	}
	return strings.Join(parts, ", ") + " ms"
}

// loadAverage is the machine's load average over the last minute, as /proc/loadavg says.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(b))[0]
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
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", dir) // a free port: 8080 may be taken
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

// opening is when an opened attempt's first step was drawn: its heading, and then its
// screenshot and details (read whole); when its step list and timeline were drawn (from its
// summaries); and, on the way, when the page's script had loaded and each call and the
// screenshot had been answered, in ms from the start of the load.
type opening struct {
	heading, drawn, listed time.Duration
	way                    map[string]any
}

// way says when the page's script, its calls and the step's screenshot arrived during a
// load, from the browser's resource timings.
const way = `() => {
	const all = performance.getEntriesByType("resource");
	const end = (part) => all.find((e) => e.name.includes(part))?.responseEnd ?? -1;
	const start = (part) => all.find((e) => e.name.includes(part))?.startTime ?? -1;
	return { script: end("/assets/"), headerAsked: start("/api/History/Header"), header: end("/api/History/Header"),
		summaries: end("/api/History/Summaries"), steps: end("/api/History/Steps"), shot: end("/media/") };
}`

// String is the way an opening went, as "script 400, Header asked 520, answered 900, ...".
func (o opening) String() string {
	return fmt.Sprintf("script loaded %.0f, History.Header asked %.0f and answered %.0f, History.Steps answered %.0f, screenshot %.0f, "+
		"heading drawn %.0f, step drawn %.0f; History.Summaries answered %.0f, step list and timeline drawn %.0f ms",
		num(o.way["script"]), num(o.way["headerAsked"]), num(o.way["header"]), num(o.way["steps"]), num(o.way["shot"]),
		ms(o.heading), ms(o.drawn), num(o.way["summaries"]), ms(o.listed))
}

// measureOpen loads the window afresh at attempt slug's first step, from its deep link, and
// returns the times from the start of the load until that step's heading is shown, until its
// screenshot has loaded and its details are drawn, and until the step list and the timeline
// are drawn. The first load (which sets the session cookie) is not timed.
func measureOpen(b *testing.B, page playwright.Page, url, id, slug string) opening {
	b.Helper()
	if _, err := page.Goto(url); err != nil {
		b.Fatal(err)
	}
	if _, err := page.Goto("about:blank"); err != nil {
		b.Fatal(err)
	}
	if _, err := page.Goto(strings.SplitN(url, "?", 2)[0] + "#/run/" + id + "/attempt/" + slug + "/step/1"); err != nil {
		b.Fatal(err)
	}
	n := bigSteps
	if slug == shortSlug {
		n = shortSteps
	}
	heading := shownAt(b, page, `(want) => document.querySelector('[data-testid="step-heading"]')?.textContent === want`,
		fmt.Sprintf("Step 1 of %d: Generated action 1", n))
	drawn := shownAt(b, page, `() => {
		const img = document.querySelector('img[alt="After screenshot"]');
		return !!img && img.complete && img.naturalWidth > 0 && !!document.querySelector('[data-testid="distance"]');
	}`, nil)
	listed := shownAt(b, page, `() => !!document.querySelector('nav[aria-label="Steps"] [aria-current="step"]') && !!document.querySelector('[aria-label="Timeline marks"]')`, nil)
	w, err := page.Evaluate(way)
	if err != nil {
		b.Fatal(err)
	}
	return opening{heading, drawn, listed, w.(map[string]any)}
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
	return time.Duration(num(v) * float64(time.Millisecond))
}

// measureSteps presses → n times inside the page and returns each press's time, in ms, until
// the frame after it is drawn, sorted; it checks the heading moved by n steps of the total.
func measureSteps(b *testing.B, page playwright.Page, n, total int) []float64 {
	b.Helper()
	before, err := page.Evaluate(`() => document.querySelector('[data-testid="step-heading"]').textContent`)
	if err != nil {
		b.Fatal(err)
	}
	var at int
	if _, err := fmt.Sscanf(before.(string), "Step %d of", &at); err != nil {
		b.Fatalf("the heading reads %q: %v", before, err)
	}
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
	if want := fmt.Sprintf("Step %d of %d:", min(at+n, total), total); !strings.HasPrefix(res["heading"].(string), want) {
		b.Fatalf("after %d presses the heading reads %q, want %q…", n, res["heading"], want)
	}
	var times []float64
	for _, v := range res["times"].([]any) {
		times = append(times, num(v))
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
	return listed, apiMS(b, page, "List")
}

// measureSelect loads the window afresh at 1280×720 with 1,001 runs stored, waits for its
// history, then opens run id as a click in the history does (through its address) and, once
// its attempts are listed, clicks the short attempt's row: it returns the ms from asking for
// the run until its attempts are listed, and from the click until that attempt's trace shows
// its step whole (its heading and its facts drawn).
func measureSelect(b *testing.B, page playwright.Page, url, id string) (float64, float64) {
	b.Helper()
	if err := page.SetViewportSize(1280, 720); err != nil {
		b.Fatal(err)
	}
	measureHistory(b, page, url)
	out, err := page.Evaluate(`async ([id, title]) => {
		const until = (ok) => new Promise((resolve) => {
			const tick = () => (ok() ? resolve(performance.now()) : requestAnimationFrame(tick));
			tick();
		});
		const row = () => [...document.querySelectorAll("table.attempts tbody tr")].find((r) => r.getAttribute("aria-label") === title || r.querySelector("th")?.textContent.trim() === title);
		const t0 = performance.now();
		location.hash = "#/run/" + id;
		const opened = await until(() => !!row());
		const t1 = performance.now();
		row().click();
		const shown = await until(() => document.querySelector(".trace-head h2")?.textContent === "Trace: " + title &&
			!!document.querySelector('[data-testid="distance"]'));
		return [opened - t0, shown - t1];
	}`, []any{id, fmt.Sprintf("A generated attempt of %d steps", shortSteps)})
	if err != nil {
		b.Fatal(err)
	}
	if err := page.SetViewportSize(1400, 1000); err != nil {
		b.Fatal(err)
	}
	times := out.([]any)
	return num(times[0]), num(times[1])
}
