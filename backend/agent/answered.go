package agent

import (
	"context"
	"time"
)

// Answered is an approver's answer with who gave it, and the answers it refused while the
// question was open: an answer from the agent's own side (the process the run started and
// what it starts, the MCP client that started the server) is never taken.
type Answered struct {
	Answer ApprovalAnswer
	// By says who answered, in words: "terminal", "window (serve, pid 4242)", "--approve
	// deny". Empty when nobody did, or the approver does not say.
	By string
	// Refused are the answers refused, in the order they came.
	Refused []Refusal
}

// Refusal is one answer refused: who tried, when, and why it was not taken.
type Refusal struct {
	By  string
	At  time.Time
	Why string
}

// RefusedAnswer is a refused answer as recorded in its approval.
type RefusedAnswer struct {
	// By names who tried to answer: "pid 4242 (node agent.js)".
	By string `json:"by"`
	// AtMS is when, in milliseconds since the attempt started.
	AtMS int64 `json:"at_ms"`
	// Why says why it was refused: "the agent's own process tree (…)".
	Why string `json:"why"`
}

// Witness is an Approver that also says who answered and whom it refused: the executor
// records both in the approval. An Approver that is no Witness records no one.
type Witness interface {
	Answered(ctx context.Context, req ApprovalRequest) (Answered, error)
}

// AnswerOf asks a, with who answered when it is a Witness.
func AnswerOf(ctx context.Context, a Approver, req ApprovalRequest) (Answered, error) {
	if w, ok := a.(Witness); ok {
		return w.Answered(ctx, req)
	}
	ans, err := a.Approve(ctx, req)
	return Answered{Answer: ans}, err
}

// record puts into rec who answered and the answers refused, their times counted from the
// attempt's start.
func (r *run) record(rec *Approval, got Answered) {
	rec.By = got.By
	for _, f := range got.Refused {
		rec.Refused = append(rec.Refused, RefusedAnswer{By: f.By, AtMS: f.At.Sub(r.start).Milliseconds(), Why: f.Why})
	}
}
