package cli

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/liveproc"
)

// fakeWindows stands for the windows following a run: watched or not, answering each
// question with answer (none: waiting until the question closes) before the terminal, whose
// question then closes as liveproc.Host closes it.
type fakeWindows struct {
	watched bool
	answer  agent.ApprovalAnswer
	// before, if set, returns when the window may answer.
	before func()

	mu    sync.Mutex
	asked int
}

func (f *fakeWindows) Watched() bool { return f.watched }

func (f *fakeWindows) Refused() []agent.Refusal { return nil }

func (f *fakeWindows) Approver(_ string, also agent.Approver) agent.Approver {
	return approverFunc(func(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
		f.mu.Lock()
		f.asked++
		f.mu.Unlock()
		if also != nil {
			local, stop := context.WithCancelCause(ctx)
			defer stop(liveproc.ErrAnsweredElsewhere)
			go also.Approve(local, req)
		}
		if f.answer != agent.AnswerNone {
			if f.before != nil {
				f.before()
			}
			return f.answer, nil
		}
		<-ctx.Done()
		return agent.AnswerNone, ctx.Err()
	})
}

// approverFunc is a function as an agent.Approver.
type approverFunc func(context.Context, agent.ApprovalRequest) (agent.ApprovalAnswer, error)

func (f approverFunc) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	return f(ctx, req)
}

// silentLines is a terminal nobody types on: each line waits until the question closes.
type silentLines struct{}

func (silentLines) Fresh() error { return nil }

func (silentLines) Line(ctx context.Context) (string, error) {
	<-ctx.Done()
	return "", ctx.Err()
}

// TestApprovalGoesWhereSomeoneWatches: without --approve a question nobody can answer (no
// terminal, no window watching) is held at once and no window is asked; --approve ask waits
// for a window all the same; a window's answer ends the terminal's question, which says so.
func TestApprovalGoesWhereSomeoneWatches(t *testing.T) {
	ask := func(mode string, term *terminal, w runWindows) (agent.ApprovalAnswer, error) {
		t.Helper()
		approver, err := approverOn(mode, term, w)
		if err != nil {
			t.Fatalf("--approve %q: %v", mode, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return approver(agent.AttemptSpec{Slug: "a"}).Approve(ctx, agent.ApprovalRequest{Action: "click Send"})
	}

	nobody := &fakeWindows{answer: agent.AnswerApprove}
	if ans, err := ask("", nil, nobody); ans != agent.AnswerNone || !errors.Is(err, agent.ErrNobodyToAsk) || nobody.asked != 0 {
		t.Errorf("no terminal, no window watching: %q, %v, the window asked %d times; want held at once, nobody asked", ans, err, nobody.asked)
	}
	later := &fakeWindows{answer: agent.AnswerApprove}
	if ans, _ := ask(approveAsk, nil, later); ans != agent.AnswerApprove || later.asked != 1 {
		t.Errorf("--approve ask, no window watching yet: %q after %d questions; want the window's approval", ans, later.asked)
	}
	watching := &fakeWindows{watched: true, answer: agent.AnswerDeny}
	if ans, _ := ask("", nil, watching); ans != agent.AnswerDeny {
		t.Errorf("no terminal, a window watching: %q, want its denial", ans)
	}
	said := &lockedBuffer{}
	term := &terminal{in: silentLines{}, out: said}
	asked := func() { // the window answers once the terminal shows the question
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(said.String(), "Approve?") && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if ans, _ := ask(approveAsk, term, &fakeWindows{answer: agent.AnswerApprove, before: asked}); ans != agent.AnswerApprove {
		t.Errorf("a terminal and a window: %q, want the window's approval", ans)
	}
	// the terminal's question closes on its own once the window has answered
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(said.String(), "(answered in the window)"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal's question did not close:\n%s", said.String())
		}
	}
	if _, err := approverOn(approveAsk, nil, nil); err == nil || !strings.Contains(err.Error(), "a window following the run") {
		t.Errorf("--approve ask with no terminal and no window: %v", err)
	}
}
