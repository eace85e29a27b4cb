package asking

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestTheFirstAnswerIsTaken: of answers racing for one question exactly one is taken, and it
// is the one Wait returns, with who gave it; a later answer is refused.
func TestTheFirstAnswerIsTaken(t *testing.T) {
	for range 50 {
		var b Book[string]
		q := b.Open(func(id string) string { return "ask " + id })
		var wg sync.WaitGroup
		taken := make(chan agent.ApprovalAnswer, 2)
		for _, ans := range []agent.ApprovalAnswer{agent.AnswerApprove, agent.AnswerDeny} {
			wg.Go(func() {
				if b.Answer(q.ID, agent.Answered{Answer: ans, By: string(ans) + "r"}) {
					taken <- ans
				}
			})
		}
		got, err := q.Wait(context.Background())
		wg.Wait()
		close(taken)
		var took []agent.ApprovalAnswer
		for a := range taken {
			took = append(took, a)
		}
		if err != nil || len(took) != 1 || took[0] != got.Answer || got.By != string(got.Answer)+"r" {
			t.Fatalf("Wait returned %q, %v; the answers taken were %v", got, err, took)
		}
		if b.Answer(q.ID, agent.Answered{Answer: agent.AnswerApprove}) {
			t.Fatal("an answer after the question closed was taken")
		}
	}
}

// TestPendingListsTheOpenOldestFirst: the open questions in the order they opened; one whose
// wait ended leaves, unanswered.
func TestPendingListsTheOpenOldestFirst(t *testing.T) {
	var b Book[string]
	var qs []*Question[string]
	for range 12 {
		qs = append(qs, b.Open(func(id string) string { return id }))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if ans, err := qs[1].Wait(ctx); ans.Answer != agent.AnswerNone || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a wait out of time ended %q, %v", ans, err)
	}
	b.Answer("3", agent.Answered{Answer: agent.AnswerDeny})
	got := b.Pending()
	want := []string{"1", "4", "5", "6", "7", "8", "9", "10", "11", "12"}
	if !slices.Equal(got, want) {
		t.Errorf("pending %v, want %v", got, want)
	}
	if ask, ok := b.Find("10"); !ok || ask != "10" {
		t.Errorf("Find(10) = %q, %v", ask, ok)
	}
	if _, ok := b.Find("2"); ok {
		t.Error("a closed question was found")
	}
}
