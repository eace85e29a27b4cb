package app

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"observatory/backend/agent"
)

// EventApproval is the event name approval requests are published under; its payload is an
// ApprovalAsk, sent once when the request opens and once when it closes.
const EventApproval = "approval"

// ApprovalAsk is one approval request of a run started from the UI, or of a run another
// process of the data folder runs (observatory mcp, run), as the UI sees it.
type ApprovalAsk struct {
	// ID names the request in Approvals.Answer.
	ID      string                `json:"id"`
	RunID   string                `json:"run_id"`
	Slug    string                `json:"slug"`
	Request agent.ApprovalRequest `json:"request"`
	// Open is true while the request waits for the user's answer.
	Open bool `json:"open"`
	// Answer is what came of a closed request: approve, deny, or none when it was not
	// answered (the time limit passed, the run stopped).
	Answer agent.ApprovalAnswer `json:"answer,omitempty"`
}

// Approvals asks the user of the desktop or serve window to approve the irreversible
// actions of the runs started there, and of the runs other processes of the data folder offer
// it (see elsewhere): each request is published as an "approval" event and waits for Answer. The task's time limit and Stop end the wait with no answer, so the
// action is held; a window that closes answers nothing, so the same holds (the desktop also
// stops its run as it closes).
type Approvals struct {
	emit Emitter

	mu      sync.Mutex
	last    int
	pending map[string]*pendingAsk
}

type pendingAsk struct {
	ask     ApprovalAsk
	answers chan agent.ApprovalAnswer // buffered: Answer never waits
}

// NewApprovals returns the approval service publishing through emit.
func NewApprovals(emit Emitter) *Approvals {
	return &Approvals{emit: emit, pending: map[string]*pendingAsk{}}
}

// Answer gives the user's answer, "approve" or "deny", to the open request id.
func (a *Approvals) Answer(id string, answer string) error {
	ans := agent.ApprovalAnswer(answer)
	if ans != agent.AnswerApprove && ans != agent.AnswerDeny {
		return fmt.Errorf("answer %q: want %q or %q", answer, agent.AnswerApprove, agent.AnswerDeny)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.pending[id]
	if !ok {
		return fmt.Errorf("approval request %q is not waiting for an answer: it was answered, or its time ran out", id)
	}
	delete(a.pending, id)
	p.answers <- ans
	return nil
}

// Pending lists the requests waiting for an answer, oldest first, for a window that opens
// (or reconnects) while they wait.
func (a *Approvals) Pending() []ApprovalAsk {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]ApprovalAsk, 0, len(a.pending))
	for n := 1; n <= a.last; n++ {
		if p, ok := a.pending[strconv.Itoa(n)]; ok {
			out = append(out, p.ask)
		}
	}
	return out
}

// forRun is the approver of each attempt of run runID (RunRequest.Approver); unexported,
// so the transports, which bind every exported method, do not offer it to the UI.
func (a *Approvals) forRun(runID string) func(agent.AttemptSpec) agent.Approver {
	return func(spec agent.AttemptSpec) agent.Approver {
		return windowApprover{a: a, runID: runID, slug: spec.Slug}
	}
}

// windowApprover is the window as one attempt's approver.
type windowApprover struct {
	a           *Approvals
	runID, slug string
}

// Approve publishes req and waits for the user's answer until ctx ends.
func (w windowApprover) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	a := w.a
	a.mu.Lock()
	a.last++
	p := &pendingAsk{ask: ApprovalAsk{ID: strconv.Itoa(a.last), RunID: w.runID, Slug: w.slug, Request: req, Open: true},
		answers: make(chan agent.ApprovalAnswer, 1)}
	a.pending[p.ask.ID] = p
	a.mu.Unlock()
	a.emit.Emit(EventApproval, p.ask)

	var err error
	closed := p.ask
	closed.Open = false
	select {
	case closed.Answer = <-p.answers:
	case <-ctx.Done():
		a.mu.Lock()
		if _, open := a.pending[p.ask.ID]; open {
			delete(a.pending, p.ask.ID)
			closed.Answer, err = agent.AnswerNone, ctx.Err()
		} else {
			closed.Answer = <-p.answers // answered as the wait ended
		}
		a.mu.Unlock()
	}
	a.emit.Emit(EventApproval, closed)
	return closed.Answer, err
}
