package agent_test

import (
	"context"
	"slices"
	"time"

	"observatory/backend/agent"
)

// mailPage is a scripted composer: To and Message fields, a Send that records who it sent
// to (and its POST, answered, in the page's traffic), a Retry, and optionally a To field the
// page rewrites when the pointer reaches Send.
type mailPage struct {
	to, body string
	rewrite  string // what To becomes on hovering Send; "" never
	text     string // extra page text
	notice   string // the page's status notice
	sent     []string
	retried  int
	requests []agent.Request // answered since the last Traffic
}

func (p *mailPage) Goto(ctx context.Context, _ string) error { return ctx.Err() }
func (p *mailPage) Observe(ctx context.Context) (agent.Sample, error) {
	return agent.Sample{URL: "http://mail/", Text: p.text, Notice: p.notice, Fields: []agent.Field{
		{Role: "textbox", Name: "To", Value: p.to}, {Role: "textbox", Name: "Message", Value: p.body}}}, ctx.Err()
}
func (p *mailPage) Resolve(context.Context, agent.Target) error { return nil }
func (p *mailPage) Act(_ context.Context, a agent.Action) error {
	switch {
	case a.Kind == agent.ActFill && a.Target.Name == "To":
		p.to = a.Value
	case a.Kind == agent.ActFill:
		p.body = a.Value
	case a.Kind == agent.ActHover && p.rewrite != "":
		p.to = p.rewrite
	case a.Kind == agent.ActClick && a.Target.Name == "Send":
		p.sent = append(p.sent, p.to)
		p.requests = append(p.requests, agent.Request{Method: "POST", URL: "http://mail/api/send", Status: 200, Size: -1})
	case a.Kind == agent.ActClick && a.Target.Name == "Retry":
		p.retried++
	}
	return nil
}
func (p *mailPage) Traffic(time.Time, bool) agent.Traffic {
	t := agent.Traffic{Requests: p.requests}
	p.requests = nil
	return t
}
func (p *mailPage) Stop(context.Context) error      { return nil }
func (p *mailPage) Mask(agent.Target)               {}
func (p *mailPage) Blocked() []string               { return nil }
func (p *mailPage) Transfers() []agent.Transfer     { return nil }
func (p *mailPage) Close() (agent.Recording, error) { return agent.Recording{}, nil }

const alice = "alice@example.com"

func mailPlan() agent.Plan {
	return agent.Plan{
		{ID: "to", Description: "Fill the recipient", Kind: agent.ActFill, Target: agent.Target{Role: "textbox", Name: "To"}, Value: alice},
		{ID: "body", Description: "Fill the message", Kind: agent.ActFill, Target: agent.Target{Role: "textbox", Name: "Message"}, Value: "hello"},
		{ID: "send", Description: "Send the message", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Send"}},
		{ID: "verify", Description: "Verify it was sent", Kind: agent.ActVerify},
	}
}

// mailEnv judges the mail page: the gate holds when done says so; otherwise the app is
// settled as ambiguous (the page could not confirm the send) when ambiguous is set. As a
// Reconciler it answers look-ups from found, in order.
type mailEnv struct {
	page      *mailPage
	done      func(*mailEnv) bool
	ambiguous bool
	found     []int
	looked    int
}

func (e *mailEnv) StartURL() string                                       { return "http://mail/" }
func (e *mailEnv) Origins() []string                                      { return nil }
func (e *mailEnv) Quiesce(context.Context) error                          { return nil }
func (e *mailEnv) Events() []agent.Event                                  { return nil }
func (e *mailEnv) Answers(context.Context, agent.Observer) []agent.Answer { return nil }
func (e *mailEnv) Close() error                                           { return nil }
func (e *mailEnv) Check(context.Context, agent.Observer) agent.Check {
	done := e.done(e)
	c := agent.Check{Gate: agent.NewGate([]agent.Condition{{ID: "sent", Label: "Sent", Verdict: agent.Verdict{Done: done, Evidence: "fake"}}})}
	if !done && e.ambiguous {
		c.Settled, c.SettledReason = agent.Ambiguous, "the page could not confirm the send"
	}
	return c
}
func (e *mailEnv) Reconcile(context.Context, agent.Sample) (agent.Reconciliation, error) {
	n := e.found[min(e.looked, len(e.found)-1)]
	e.looked++
	return agent.Reconciliation{OpID: "op-1", Query: "GET /api/messages?op_id=op-1", Answer: "{}", Found: n,
		Retry: &agent.Action{ID: "retry", Description: "Retry", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Retry"}}}, nil
}

// sentOnceToAlice is the gate of the approval tests.
func sentOnceToAlice(e *mailEnv) bool { return slices.Equal(e.page.sent, []string{alice}) }

// never sleeps until ctx ends: an approval limit that never passes.
func never(ctx context.Context, _ time.Duration) error {
	<-ctx.Done()
	return ctx.Err()
}

// instantly sleeps no time at all: an approval limit that has already passed.
func instantly(ctx context.Context, _ time.Duration) error { return ctx.Err() }
