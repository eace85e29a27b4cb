package app

import (
	"context"
	"fmt"
	"os"

	"observatory/backend/agent"
	"observatory/backend/asking"
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
	book asking.Book[pendingAsk]
	// window is what the window is, "desktop" or "serve", for the record of who answered.
	window string
}

// pendingAsk is a request waiting for the user's answer.
type pendingAsk struct {
	ask ApprovalAsk
	// reply sends the answer to the process that asked, for a run of another process (see
	// elsewhere); nil for the runs started here.
	reply func(agent.ApprovalAnswer) error
}

// NewApprovals returns the approval service of window ("desktop" or "serve") publishing
// through emit.
func NewApprovals(emit Emitter, window string) *Approvals {
	return &Approvals{emit: emit, window: window}
}

// Answer gives the user's answer, "approve" or "deny", to the open request id. A request of
// another process's run is answered there: an error says the process did not take it
// (answered on its terminal or in another window first, or out of time), and the request
// closes with what the process took.
func (a *Approvals) Answer(id string, answer string) error {
	ans := agent.ApprovalAnswer(answer)
	if ans != agent.AnswerApprove && ans != agent.AnswerDeny {
		return fmt.Errorf("answer %q: want %q or %q", answer, agent.AnswerApprove, agent.AnswerDeny)
	}
	p, ok := a.book.Find(id)
	switch {
	case ok && p.reply != nil:
		if err := p.reply(ans); err != nil {
			return fmt.Errorf("approval request %q: %w", id, err)
		}
		return nil
	case ok && a.book.Answer(id, agent.Answered{Answer: ans, By: fmt.Sprintf("window (%s, pid %d)", a.window, os.Getpid())}):
		return nil
	}
	return fmt.Errorf("approval request %q is not waiting for an answer: it was answered, or its time ran out", id)
}

// Pending lists the requests waiting for an answer, oldest first, for a window that opens
// (or reconnects) while they wait.
func (a *Approvals) Pending() []ApprovalAsk {
	pending := a.book.Pending()
	out := make([]ApprovalAsk, len(pending))
	for i, p := range pending {
		out[i] = p.ask
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

// open publishes a request and opens it; reply is pendingAsk's.
func (a *Approvals) open(runID, slug string, req agent.ApprovalRequest, reply func(agent.ApprovalAnswer) error) *asking.Question[pendingAsk] {
	q := a.book.Open(func(id string) pendingAsk {
		return pendingAsk{ask: ApprovalAsk{ID: id, RunID: runID, Slug: slug, Request: req, Open: true}, reply: reply}
	})
	a.emit.Emit(EventApproval, q.Ask.ask)
	return q
}

// closed publishes that q closed with ans.
func (a *Approvals) closed(q *asking.Question[pendingAsk], ans agent.ApprovalAnswer) {
	ask := q.Ask.ask
	ask.Open, ask.Answer = false, ans
	a.emit.Emit(EventApproval, ask)
}

// settle closes q, a request of another process's run, with what the process took.
func (a *Approvals) settle(q *asking.Question[pendingAsk], ans agent.ApprovalAnswer) {
	a.book.Answer(q.ID, agent.Answered{Answer: ans}) // the process's outcome is the request's answer
	a.closed(q, ans)
}

// windowApprover is the window as one attempt's approver.
type windowApprover struct {
	a           *Approvals
	runID, slug string
}

// Approve publishes req and waits for the user's answer until ctx ends.
func (w windowApprover) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	got, err := w.Answered(ctx, req)
	return got.Answer, err
}

// Answered is Approve with which window answered (an agent.Witness).
func (w windowApprover) Answered(ctx context.Context, req agent.ApprovalRequest) (agent.Answered, error) {
	q := w.a.open(w.runID, w.slug, req, nil)
	got, err := q.Wait(ctx)
	w.a.closed(q, got.Answer)
	return got, err
}
