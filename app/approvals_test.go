package app

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
)

// asks is an Emitter that hands each approval event to a channel.
type asks chan ApprovalAsk

func (c asks) Emit(name string, data any) {
	if name == EventApproval {
		c <- data.(ApprovalAsk)
	}
}

// ask starts one Approve of req for attempt slug of run-1 and returns its result channel.
func ask(ctx context.Context, a *Approvals, slug string, req agent.ApprovalRequest) chan agent.ApprovalAnswer {
	out := make(chan agent.ApprovalAnswer, 1)
	go func() {
		ans, _ := a.forRun("run-1")(agent.AttemptSpec{Slug: slug}).Approve(ctx, req)
		out <- ans
	}()
	return out
}

func next(t *testing.T, events asks) ApprovalAsk {
	t.Helper()
	select {
	case e := <-events:
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no approval event")
		return ApprovalAsk{}
	}
}

func TestApprovalsPublishWaitAndAnswer(t *testing.T) {
	events := make(asks, 8)
	a := NewApprovals(events, "desktop")
	req := agent.ApprovalRequest{Step: 3, Action: "Send the message", Target: "button[Send]", Recipient: "alice@example.com", Again: "the recipient changed"}
	first := ask(context.Background(), a, "approval-denied", req)
	opened := next(t, events)
	if !opened.Open || opened.RunID != "run-1" || opened.Slug != "approval-denied" || opened.Request.Recipient != "alice@example.com" || opened.Request.Again == "" {
		t.Fatalf("opened %+v: want the open request with its run, attempt and details", opened)
	}
	second := ask(context.Background(), a, "other", req)
	next(t, events)
	if p := a.Pending(); len(p) != 2 || p[0].ID != opened.ID {
		t.Fatalf("pending %+v: want both requests, oldest first", p)
	}
	if err := a.Answer(opened.ID, "maybe"); err == nil {
		t.Fatal("answer maybe accepted")
	}
	if err := a.Answer(opened.ID, "approve"); err != nil {
		t.Fatal(err)
	}
	if got := <-first; got != agent.AnswerApprove {
		t.Fatalf("answer %q, want approve", got)
	}
	if closed := next(t, events); closed.Open || closed.ID != opened.ID || closed.Answer != agent.AnswerApprove {
		t.Fatalf("closed %+v: want the request closed as approved", closed)
	}
	if err := a.Answer(opened.ID, "deny"); err == nil {
		t.Fatal("a second answer to the same request was accepted")
	}
	if p := a.Pending(); len(p) != 1 || p[0].Slug != "other" {
		t.Fatalf("pending %+v: want only the other request", p)
	}
	if err := a.Answer(a.Pending()[0].ID, "deny"); err != nil {
		t.Fatal(err)
	}
	if got := <-second; got != agent.AnswerDeny {
		t.Fatalf("answer %q, want deny", got)
	}
}

// TestApprovalsHoldWhenTheWaitEnds: the time limit or Stop (the context ending) is no answer.
func TestApprovalsHoldWhenTheWaitEnds(t *testing.T) {
	events := make(asks, 8)
	a := NewApprovals(events, "desktop")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	var err error
	var ans agent.ApprovalAnswer
	go func() {
		defer wg.Done()
		ans, err = a.forRun("run-1")(agent.AttemptSpec{Slug: "approval-timeout"}).Approve(ctx, agent.ApprovalRequest{})
	}()
	opened := next(t, events)
	cancel()
	wg.Wait()
	if ans != agent.AnswerNone || !errors.Is(err, context.Canceled) {
		t.Fatalf("answer %q, error %v: want none, cancelled", ans, err)
	}
	if closed := next(t, events); closed.Open || closed.Answer != agent.AnswerNone {
		t.Fatalf("closed %+v: want the request closed with no answer", closed)
	}
	if err := a.Answer(opened.ID, "approve"); err == nil || len(a.Pending()) != 0 {
		t.Fatalf("an answer after the wait ended was accepted (%v), or the request still waits", err)
	}
}
