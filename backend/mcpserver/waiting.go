package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
)

// When an ask is told to the client: once it has waited waitFirst (an answer given at once,
// by --approve deny or hold, is not news), then every waitEvery until it is answered.
// Clients cancel a request after a time with no word from the server (the TypeScript SDK
// after 60 s unless progress resets its clock), and a person may take longer than that.
// A notification is given up after notifyTimeout.
const (
	waitFirst     = time.Second
	waitEvery     = 15 * time.Second
	notifyTimeout = 5 * time.Second
)

// Waiting tells the client of the tool call under way that the call waits for a person's
// approval, as MCP progress notifications on the call's progress token; a call made without
// one is told nothing. The composition root wraps the run's approvers with Approvals and
// gives the same Waiting to the server (Options.Waiting), which says which call is under way.
// The zero value tells no call anything yet.
type Waiting struct {
	mu   sync.Mutex
	call *progressCall
}

// progressCall is a tool call that asked for progress: its session and token, and how many
// notifications it was sent.
type progressCall struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any
	sent    float64
}

// Approvals wraps each attempt's approver (nil stays nil) so that an ask is told to the call
// under way while it waits.
func (w *Waiting) Approvals(approvers func(agent.AttemptSpec) agent.Approver) func(agent.AttemptSpec) agent.Approver {
	return func(spec agent.AttemptSpec) agent.Approver {
		a := approvers(spec)
		if a == nil {
			return nil
		}
		return told{inner: a, w: w}
	}
}

// during makes req the call under way until the returned function is called.
func (w *Waiting) during(ctx context.Context, req *mcp.CallToolRequest) func() {
	if w == nil || req.Params == nil || req.Params.GetProgressToken() == nil {
		return func() {}
	}
	c := &progressCall{ctx: ctx, session: req.Session, token: req.Params.GetProgressToken()}
	w.mu.Lock()
	w.call = c
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		if w.call == c {
			w.call = nil
		}
		w.mu.Unlock()
	}
}

// tell sends msg to the call under way, if it asked for progress.
func (w *Waiting) tell(msg string) {
	w.mu.Lock()
	c := w.call
	var n float64
	if c != nil {
		c.sent++
		n = c.sent
	}
	w.mu.Unlock()
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, notifyTimeout) // a client that reads nothing holds no answer
	defer cancel()
	_ = c.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: c.token, Progress: n, Message: msg})
}

// while tells the call under way that what waits for a person's answer still does, from
// waitFirst on, until stop is closed; it closes done as it returns.
func (w *Waiting) while(what string, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	start := time.Now()
	timer := time.NewTimer(waitFirst)
	defer timer.Stop()
	for {
		select {
		case <-stop:
			return
		case <-timer.C:
			w.tell(fmt.Sprintf("waiting for a person to approve %q (%s so far); nothing is done until they answer", what, time.Since(start).Round(time.Second)))
			timer.Reset(waitEvery)
		}
	}
}

// told is an approver whose asks are told to the call under way while they wait. It is a
// Witness whatever it wraps, answering as agent.AnswerOf does.
type told struct {
	inner agent.Approver
	w     *Waiting
}

// Approve asks inner, telling the call under way while it waits.
func (t told) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	got, err := t.Answered(ctx, req)
	return got.Answer, err
}

// Answered asks inner with who answered, telling the call under way while it waits.
func (t told) Answered(ctx context.Context, req agent.ApprovalRequest) (agent.Answered, error) {
	stop, done := make(chan struct{}), make(chan struct{})
	go t.w.while(req.Action, stop, done)
	defer func() { close(stop); <-done }() // no word after the answer: the call's reply comes last
	return agent.AnswerOf(ctx, t.inner, req)
}
