package fanout

import (
	"slices"
	"testing"
)

// TestASlowSubscriberIsDroppedNotWaitedFor: a subscriber that reads nothing misses the
// optional messages once half its queue waits, and is dropped (its channel closed) when the
// queue is full; another that reads keeps everything.
func TestASlowSubscriberIsDroppedNotWaitedFor(t *testing.T) {
	var f Feed[int]
	slow, quick := f.Subscribe(4), f.Subscribe(4)
	var got []int
	for m := range 8 {
		f.Send(m, m%2 == 1) // the odd ones are optional
		got = append(got, <-quick)
	}
	if len(got) != 8 || f.Len() != 1 {
		t.Fatalf("the reader got %v; %d subscribe", got, f.Len())
	}
	var slowGot []int
	for m := range slow {
		slowGot = append(slowGot, m)
	}
	// 0 and 1 fill half the queue, so 3 is skipped; 2 and 4 fill it; 6 finds it full.
	if want := []int{0, 1, 2, 4}; !slices.Equal(slowGot, want) {
		t.Errorf("the slow subscriber got %v, want %v", slowGot, want)
	}
	f.Unsubscribe(quick)
	f.Unsubscribe(quick) // twice is harmless
	if f.Len() != 0 {
		t.Errorf("%d subscribe after both left", f.Len())
	}
}
