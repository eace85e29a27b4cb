package agent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// mortalPage is a fakePage that can die, as a browser's page does when Chromium is killed:
// Gone closes, and from then on every call fails with ErrBrowserGone.
type mortalPage struct {
	*fakePage
	gone chan struct{}
	once sync.Once
	// actHook, when set, runs first in Act; its error is Act's.
	actHook func(agent.Action) error
}

func newMortalPage() *mortalPage {
	return &mortalPage{fakePage: &fakePage{controls: controls()}, gone: make(chan struct{})}
}

var errKilled = fmt.Errorf("%w: Chromium exited", agent.ErrBrowserGone)

func (p *mortalPage) die()                  { p.once.Do(func() { close(p.gone) }) }
func (p *mortalPage) Gone() <-chan struct{} { return p.gone }

func (p *mortalPage) GoneErr() error {
	select {
	case <-p.gone:
		return errKilled
	default:
		return nil
	}
}

func (p *mortalPage) Observe(ctx context.Context) (agent.Sample, error) {
	if err := p.GoneErr(); err != nil {
		return agent.Sample{}, err
	}
	return p.fakePage.Observe(ctx)
}

func (p *mortalPage) Act(ctx context.Context, a agent.Action) error {
	if p.actHook != nil {
		if err := p.actHook(a); err != nil {
			return err
		}
	}
	if err := p.GoneErr(); err != nil {
		return err
	}
	return p.fakePage.Act(ctx, a)
}

func (p *mortalPage) Stop(ctx context.Context) error {
	if err := p.GoneErr(); err != nil {
		return err
	}
	return p.fakePage.Stop(ctx)
}

// waitForever sleeps until the attempt's context ends, and so does a fixed wait's check: only
// the page's death can end a wait.
func waitForever(ctx context.Context, _ time.Duration) error {
	<-ctx.Done()
	return ctx.Err()
}

func neverChecked(ctx context.Context, _ time.Duration, _ func() agent.Check) <-chan agent.Check {
	ch := make(chan agent.Check)
	go func() {
		<-ctx.Done()
		close(ch)
	}()
	return ch
}

// runBounded runs the attempt, failing t if it has not ended 10 s after the page died: only
// the death can end it.
func runBounded(t *testing.T, ctx context.Context, x *agent.Executor, page *mortalPage, job agent.Job, hooks agent.Hooks) agent.Outcome {
	t.Helper()
	done := make(chan agent.Outcome, 1)
	go func() { done <- x.Run(ctx, page, job, hooks) }()
	<-page.gone
	select {
	case out := <-done:
		return out
	case <-time.After(10 * time.Second):
		t.Fatal("the attempt still runs 10 s after its page died")
		return agent.Outcome{}
	}
}

// TestPageDeathEndsTheWaitAtOnce kills the page once the executor waits on the gate, with a
// clock under which no wait would ever end by itself: the attempt ends anyway, failed (the
// save's fate is for Reconcile to judge from the app), with the death as its error and reason,
// and without claiming to have stopped a page that is gone. The page dies from within the
// wait's sleep, so the death is met there and nowhere earlier; the plan is hidden behind a
// blind planner so that a fixed wait sleeps too, instead of reading a scheduled check.
func TestPageDeathEndsTheWaitAtOnce(t *testing.T) {
	for _, wait := range []agent.WaitMode{agent.WaitCondition, agent.WaitFixed} {
		t.Run(string(wait), func(t *testing.T) {
			page := newMortalPage()
			cfg := agent.DefaultConfig()
			cfg.Wait = wait
			dieWaiting := func(ctx context.Context, d time.Duration) error {
				page.die()
				return waitForever(ctx, d)
			}
			x := &agent.Executor{Policy: harness.Policy{}, Sleep: dieWaiting, Schedule: neverChecked}
			blind := struct{ agent.Planner }{planner.Scripted(plan())}
			out := runBounded(t, context.Background(), x, page, agent.Job{Env: &fakeLab{}, Planner: blind, Config: cfg}, agent.Hooks{})
			if out.Terminal != agent.Failed || !errors.Is(out.Err, agent.ErrBrowserGone) {
				t.Fatalf("terminal %s, error %v (%s); want failed with ErrBrowserGone", out.Terminal, out.Err, out.Reason)
			}
			if !strings.Contains(out.Reason, "while waiting") || !strings.Contains(out.Reason, "Chromium exited") {
				t.Errorf("reason %q, want it to say the browser died while waiting", out.Reason)
			}
			if strings.Contains(out.Reason, "stopped") {
				t.Errorf("reason %q claims a stop on a dead page", out.Reason)
			}
		})
	}
}

// TestPageDeathIsNeverACancellation checks the terminal state of a death at each point of the
// attempt: before the commit it is failed, during it ambiguous; a caller's cancellation stays
// a cancellation even when the page dies after it.
func TestPageDeathIsNeverACancellation(t *testing.T) {
	tests := []struct {
		name   string
		dies   agent.ActionKind // the page dies as this action acts
		cancel bool             // the caller cancels first
		want   agent.Terminal
	}{
		{name: "while filling", dies: agent.ActFill, want: agent.Failed},
		{name: "while submitting", dies: agent.ActSubmit, want: agent.Ambiguous},
		{name: "after a cancellation", dies: agent.ActFill, cancel: true, want: agent.Cancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			page := newMortalPage()
			page.actHook = func(a agent.Action) error {
				if a.Kind != tt.dies {
					return nil
				}
				if tt.cancel {
					cancel()
				}
				page.die()
				return fmt.Errorf("%s: %w", a.Kind, context.Canceled) // the call was abandoned
			}
			x := &agent.Executor{Policy: harness.Policy{}, Sleep: waitForever, Schedule: neverChecked}
			out := runBounded(t, ctx, x, page, agent.Job{Env: &fakeLab{}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()}, agent.Hooks{})
			if out.Terminal != tt.want {
				t.Fatalf("terminal %s (%s), want %s", out.Terminal, out.Reason, tt.want)
			}
			if tt.want != agent.Cancelled && (!errors.Is(out.Err, agent.ErrBrowserGone) || strings.Contains(out.Reason, "context canceled")) {
				t.Errorf("error %v, reason %q: want the death, not the cancellation it caused", out.Err, out.Reason)
			}
		})
	}
}

// dyingMailPage is a mailPage that can die as mortalPage does.
type dyingMailPage struct {
	*mailPage
	gone chan struct{}
}

func (p *dyingMailPage) Gone() <-chan struct{} { return p.gone }

func (p *dyingMailPage) GoneErr() error {
	select {
	case <-p.gone:
		return errKilled
	default:
		return nil
	}
}

// dieWhenAsked kills the page as soon as the user is asked, and never answers.
type dieWhenAsked struct{ page *dyingMailPage }

func (d dieWhenAsked) Approve(ctx context.Context, _ agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	close(d.page.gone)
	<-ctx.Done()
	return "", ctx.Err()
}

// TestPageDeathWhileAwaitingApproval kills the page while the executor waits for the user to
// approve a send: the attempt fails at once with the death (the send never acted), rather than
// being rejected for want of an answer.
func TestPageDeathWhileAwaitingApproval(t *testing.T) {
	page := &dyingMailPage{mailPage: &mailPage{}, gone: make(chan struct{})}
	cfg := agent.DefaultConfig()
	cfg.Safeguards = &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: 3_600_000}}
	x := &agent.Executor{Policy: harness.Policy{}, Approver: dieWhenAsked{page}}
	done := make(chan agent.Outcome, 1)
	go func() {
		done <- x.Run(context.Background(), page, agent.Job{Env: &mailEnv{page: page.mailPage, done: sentOnceToAlice},
			Planner: planner.Scripted(mailPlan()), Config: cfg}, agent.Hooks{})
	}()
	var out agent.Outcome
	select {
	case out = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the attempt still waits for approval 10 s after its page died")
	}
	if out.Terminal != agent.Failed || !errors.Is(out.Err, agent.ErrBrowserGone) || len(page.sent) != 0 {
		t.Fatalf("%s (%s), error %v, sent %v; want failed with ErrBrowserGone, nothing sent", out.Terminal, out.Reason, out.Err, page.sent)
	}
	if !strings.Contains(out.Reason, "waiting for approval") || !strings.Contains(out.Reason, "Chromium exited") {
		t.Errorf("reason %q, want the death while waiting for approval", out.Reason)
	}
}
