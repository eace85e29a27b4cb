package bench

import (
	"context"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser"
)

// phases adds up the wall time an attempt spends in each call the executor makes on its page,
// so that the benchmark can say where the harness's time goes, not only how much it is.
type phases struct {
	mu    sync.Mutex
	spent map[string]time.Duration
	calls map[string]int
}

func newPhases() *phases {
	return &phases{spent: map[string]time.Duration{}, calls: map[string]int{}}
}

// time adds the time since start to the phase called name.
func (ph *phases) time(name string, start time.Time) {
	d := time.Since(start)
	ph.mu.Lock()
	defer ph.mu.Unlock()
	ph.spent[name] += d
	ph.calls[name]++
}

// report reports each phase's milliseconds and calls per iteration of b, as name-ms/op and
// name-calls/op.
func (ph *phases) report(b *testing.B) {
	ph.mu.Lock()
	defer ph.mu.Unlock()
	for name, d := range ph.spent {
		b.ReportMetric(float64(d.Milliseconds())/float64(b.N), name+"-ms/op")
		b.ReportMetric(float64(ph.calls[name])/float64(b.N), name+"-calls/op")
	}
}

// timedPage is a browser page whose calls from the executor are timed into phases. It
// embeds the page itself, so the executor still finds every optional capability (Lifeline,
// Watcher, Measurer, Grouper) and drives the page exactly as it would without the timing.
type timedPage struct {
	*browser.Page
	ph *phases
}

func (p timedPage) Goto(ctx context.Context, url string) error {
	defer p.ph.time("goto", time.Now())
	return p.Page.Goto(ctx, url)
}

func (p timedPage) ObserveFramed(ctx context.Context) (agent.Sample, error) {
	defer p.ph.time("observe", time.Now())
	return p.Page.ObserveFramed(ctx)
}

func (p timedPage) Observe(ctx context.Context) (agent.Sample, error) {
	defer p.ph.time("observe", time.Now())
	return p.Page.Observe(ctx)
}

func (p timedPage) Resolve(ctx context.Context, t agent.Target) error {
	defer p.ph.time("resolve", time.Now())
	return p.Page.Resolve(ctx, t)
}

func (p timedPage) Measure(ctx context.Context, t agent.Target) (agent.Box, error) {
	defer p.ph.time("measure", time.Now())
	return p.Page.Measure(ctx, t)
}

func (p timedPage) Act(ctx context.Context, a agent.Action) error {
	defer p.ph.time("act-"+string(a.Kind), time.Now()) // the hover is the approach before a commit
	return p.Page.Act(ctx, a)
}

func (p timedPage) Settle(ctx context.Context) {
	defer p.ph.time("settle", time.Now())
	p.Page.Settle(ctx)
}

func (p timedPage) Traffic(epoch time.Time, final bool) agent.Traffic {
	defer p.ph.time("traffic", time.Now())
	return p.Page.Traffic(epoch, final)
}

// timedEnv is an environment whose gate checks are timed into phases.
type timedEnv struct {
	agent.Environment
	ph *phases
}

func (e timedEnv) Check(ctx context.Context, observe agent.Observer) agent.Check {
	defer e.ph.time("check", time.Now())
	return e.Environment.Check(ctx, observe)
}
