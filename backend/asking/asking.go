// Package asking keeps the approval requests a run waits on: each is opened under an id of
// its own, taken by the first answer given to it, or closed unanswered when its wait ends. The
// window's approvals (app) and a run offered to windows (liveproc) both keep theirs in a Book.
package asking

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"sync"

	"observatory/backend/agent"
)

// Book holds the open questions, each asking a Q. The zero Book is ready to use.
type Book[Q any] struct {
	mu   sync.Mutex
	last int
	open map[string]*Question[Q]
}

// Question is one question of a Book, open until Wait returns or an answer is taken.
type Question[Q any] struct {
	// ID names the question in Answer: "1", "2"… in the order the book's questions opened.
	ID  string
	Ask Q

	n       int
	book    *Book[Q]
	answers chan agent.Answered // buffered: an answer never waits
}

// Open opens a question asking what ask makes of its id.
func (b *Book[Q]) Open(ask func(id string) Q) *Question[Q] {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open == nil {
		b.open = map[string]*Question[Q]{}
	}
	b.last++
	id := strconv.Itoa(b.last)
	q := &Question[Q]{ID: id, Ask: ask(id), n: b.last, book: b, answers: make(chan agent.Answered, 1)}
	b.open[id] = q
	return q
}

// Answer gives ans (with who gave it) to the open question id, which closes; false when id
// is not open (it was answered, or its wait ended), and then nothing is taken.
func (b *Book[Q]) Answer(id string, ans agent.Answered) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, ok := b.open[id]
	if ok {
		delete(b.open, id)
		q.answers <- ans
	}
	return ok
}

// Find is what the open question id asks; ok is false when it is not open.
func (b *Book[Q]) Find(id string) (ask Q, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, ok := b.open[id]
	if !ok {
		return ask, false
	}
	return q.Ask, true
}

// Pending lists what the open questions ask, oldest first.
func (b *Book[Q]) Pending() []Q {
	b.mu.Lock()
	open := make([]*Question[Q], 0, len(b.open))
	for _, q := range b.open {
		open = append(open, q)
	}
	b.mu.Unlock()
	slices.SortFunc(open, func(x, y *Question[Q]) int { return cmp.Compare(x.n, y.n) })
	out := make([]Q, len(open))
	for i, q := range open {
		out[i] = q.Ask
	}
	return out
}

// Wait waits for q's answer until ctx ends, and closes q. With no answer by then it returns
// AnswerNone and ctx's error, unless an answer was taken as the wait ended: that one counts.
func (q *Question[Q]) Wait(ctx context.Context) (agent.Answered, error) {
	select {
	case ans := <-q.answers:
		return ans, nil
	case <-ctx.Done():
	}
	b := q.book
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, open := b.open[q.ID]; open {
		delete(b.open, q.ID)
		return agent.Answered{Answer: agent.AnswerNone}, ctx.Err()
	}
	return <-q.answers, nil
}
