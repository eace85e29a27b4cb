package httpapi

import (
	"testing"

	"observatory/app"
)

// TestHubDropsLiveFramesForASlowClient fills half a client's queue: live frames are then left
// out for it, the run's own events still queue, and only a full queue drops the client.
func TestHubDropsLiveFramesForASlowClient(t *testing.T) {
	h := newHub()
	c := h.add()
	for range cap(c) / 2 {
		h.Emit(app.EventLive, "frame")
	}
	if len(c) != cap(c)/2 {
		t.Fatalf("queued %d live frames, want %d", len(c), cap(c)/2)
	}
	h.Emit(app.EventLive, "one frame too many")
	h.Emit(app.EventRun, "step")
	if len(c) != cap(c)/2+1 {
		t.Fatalf("queue holds %d, want the live frames and the step: %d", len(c), cap(c)/2+1)
	}
	for range cap(c) {
		h.Emit(app.EventRun, "step")
	}
	if h.Watching() {
		t.Fatal("a client whose queue overflowed with run events is still connected")
	}
}
