package bench

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/harness"
	"observatory/backend/labs/booking"
	"observatory/backend/planner"
)

// latencyMS is the fast save of the booking lab's ordinary attempts.
const latencyMS = 50

// BenchmarkExecutorAttempt runs the saves-normally attempt through the executor: a fresh lab
// instance and page, five admitted actions each sampled before and after, and a condition
// wait on the completion gate, with no files recorded. Besides the attempt's wall and CPU time
// it reports where the wall time went, call by call (see phases): observe-ms/op, act-ms/op and
// the rest.
func BenchmarkExecutorAttempt(b *testing.B) { executorAttempt(b, agent.Media{}) }

// BenchmarkExecutorFull is BenchmarkExecutorAttempt recording full evidence: every step's
// before and after with its screenshot stored (no video: the peer it is compared with,
// Playwright's tracing, records none).
func BenchmarkExecutorFull(b *testing.B) { executorAttempt(b, agent.Media{Screenshots: true}) }

// BenchmarkExecutorLean is BenchmarkExecutorAttempt recording lean evidence: every sample, a
// screenshot only where something went wrong and on the last look.
func BenchmarkExecutorLean(b *testing.B) {
	executorAttempt(b, agent.Media{Screenshots: true, Evidence: agent.EvidenceLean})
}

// executorAttempt runs the attempt b.N times recording media, into a media folder of its own
// when media records files.
func executorAttempt(b *testing.B, media agent.Media) {
	ctx := context.Background()
	meter := meterCPU(b) // before the browser starts, so that it is counted
	br := browsertest.Launch(b)
	lab := booking.New()
	spec := agent.AttemptSpec{Slug: "saves-normally", Fault: booking.FaultNone,
		Params: map[string]int{booking.ParamLatency: latencyMS}, Config: agent.DefaultConfig()}
	exec := &agent.Executor{Policy: harness.Policy{}}
	ph := newPhases()
	dir := ""
	if media.Files() {
		dir = b.TempDir()
	}
	b.ResetTimer()
	from := meter.mark()
	for b.Loop() {
		env, err := lab.Start(ctx, spec)
		if err != nil {
			b.Fatal(err)
		}
		opened := time.Now()
		page, err := br.NewPage(ctx, agent.PageOptions{Origins: env.Origins(), MediaDir: dir, Name: spec.Slug, Media: media})
		if err != nil {
			b.Fatal(err)
		}
		ph.time("open", opened)
		timed := timedPage{Page: page.(*browser.Page), ph: ph}
		out := exec.Run(ctx, timed, agent.Job{Env: timedEnv{env, ph}, Planner: planner.Scripted(lab.Plan()), Config: spec.Config}, agent.Hooks{})
		closing := time.Now()
		if _, err := page.Close(); err != nil {
			b.Fatal(err)
		}
		ph.time("close", closing)
		env.Close()
		if out.Terminal != agent.Completed {
			b.Fatalf("attempt ended %s: %s", out.Terminal, out.Reason)
		}
	}
	meter.report(b, from)
	ph.report(b)
}

// BenchmarkBarePlaywright does the same five actions with plain playwright-go calls: no
// sampling, no admission, no target uniqueness check; the verify step polls the same gate
// the same way.
func BenchmarkBarePlaywright(b *testing.B) { barePlaywright(b, false) }

// BenchmarkBareTracing is BenchmarkBarePlaywright recording evidence as a Playwright user
// does: the context traced with screenshots and DOM snapshots of every action, stopped into a
// trace.zip at the end of each attempt. It is the peer full evidence is measured against.
func BenchmarkBareTracing(b *testing.B) { barePlaywright(b, true) }

// barePlaywright runs the five actions b.N times, each attempt traced into a file of its own
// when trace is set.
func barePlaywright(b *testing.B, trace bool) {
	meter := meterCPU(b)
	br := browsertest.Launch(b).Playwright()
	lab := booking.New()
	task := booking.Requested
	dir := b.TempDir()
	b.ResetTimer()
	from := meter.mark()
	for b.Loop() {
		inst, err := lab.Launch(booking.FaultNone, map[string]int{booking.ParamLatency: latencyMS})
		if err != nil {
			b.Fatal(err)
		}
		bc, err := br.NewContext(playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1000, Height: 700}})
		if err != nil {
			b.Fatal(err)
		}
		must := func(err error) {
			if err != nil {
				b.Fatal(err)
			}
		}
		if trace {
			must(bc.Tracing().Start(playwright.TracingStartOptions{Screenshots: playwright.Bool(true), Snapshots: playwright.Bool(true)}))
		}
		page, err := bc.NewPage()
		if err != nil {
			b.Fatal(err)
		}
		_, err = page.Goto(inst.URL())
		must(err)
		role := func(r playwright.AriaRole, name string) playwright.Locator {
			return page.GetByRole(r, playwright.PageGetByRoleOptions{Name: name, Exact: playwright.Bool(true)})
		}
		must(role("button", booking.ReserveLabel).Click())
		must(role("textbox", "Reservation title").Fill(task.Title))
		_, err = role("combobox", "Room").SelectOption(playwright.SelectOptionValues{Values: &[]string{task.Room}})
		must(err)
		must(role("button", "Save reservation").Click())
		// Verify as the executor does, so the ratio isolates sampling and admission: poll the
		// lab's gate every 20 ms up to the same 1500 ms deadline.
		cfg := agent.DefaultConfig()
		for deadline := time.Now().Add(cfg.Deadline()); !inst.Check(task).Gate.Done; time.Sleep(cfg.Poll()) {
			if time.Now().After(deadline) {
				b.Fatal("the gate did not hold within the deadline")
			}
		}
		if trace {
			must(bc.Tracing().Stop(filepath.Join(dir, "trace.zip")))
		}
		must(bc.Close())
		inst.Close()
	}
	meter.report(b, from)
}
