// Package fanout sends each message to every subscriber without ever waiting for one: serve's
// events WebSocket and a run offered to windows (liveproc) both fan out through a Feed.
package fanout

import "sync"

// Feed queues each message for every subscriber. A subscriber too slow to keep up loses its
// subscription (its channel closes) rather than slowing the sender down; before that, once
// half its queue waits, it misses the messages sent as optional (live frames, which the next
// one replaces anyway), so that they never crowd out the others. The zero Feed is ready.
type Feed[M any] struct {
	mu   sync.Mutex
	subs map[chan M]struct{}
}

// Subscribe adds a subscriber whose queue holds size messages.
func (f *Feed[M]) Subscribe(size int) chan M {
	ch := make(chan M, size)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.subs == nil {
		f.subs = map[chan M]struct{}{}
	}
	f.subs[ch] = struct{}{}
	return ch
}

// Unsubscribe removes ch and closes it, if it is still subscribed.
func (f *Feed[M]) Unsubscribe(ch chan M) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.subs[ch]; ok {
		delete(f.subs, ch)
		close(ch)
	}
}

// Send queues m for every subscriber; optional m is skipped for one whose queue is half full.
func (f *Feed[M]) Send(m M, optional bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs {
		if optional && len(ch) >= cap(ch)/2 {
			continue
		}
		select {
		case ch <- m:
		default:
			delete(f.subs, ch)
			close(ch)
		}
	}
}

// Len is how many subscribe now.
func (f *Feed[M]) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}
