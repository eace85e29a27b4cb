package browser

import (
	"bytes"
	"context"
	"image/jpeg"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
)

// streamed runs p.Stream in the background at 100 ms a frame, keeping what it sends; the
// returned channel gets Stream's result.
func streamed(ctx context.Context, p agent.Page) (*frames, <-chan error) {
	got := &frames{}
	ended := make(chan error, 1)
	go func() { ended <- p.(agent.Streamer).Stream(ctx, 100*time.Millisecond, got.add) }()
	return got, ended
}

// frames collects streamed frames.
type frames struct {
	mu  sync.Mutex
	all []agent.LiveFrame
}

func (f *frames) add(fr agent.LiveFrame) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.all = append(f.all, fr)
}

func (f *frames) list() []agent.LiveFrame {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]agent.LiveFrame(nil), f.all...)
}

// ended fails t unless Stream returned nil within d.
func streamEnded(t *testing.T, ended <-chan error, d time.Duration) {
	t.Helper()
	select {
	case err := <-ended:
		if err != nil {
			t.Fatalf("Stream: %v", err)
		}
	case <-time.After(d):
		t.Fatalf("Stream still running %s after its end", d)
	}
}

// TestStreamFramesAndEnd streams a page that paints nothing new for a second and a half: the
// stream still refreshes at its rate, each frame a real JPEG within the bounds, timestamps in
// order; opening a dialog and typing into it paints screencast frames. It stops at once when its context
// ends, and when the page closes.
func TestStreamFramesAndEnd(t *testing.T) {
	page := openLab(t, agent.PageOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	got, ended := streamed(ctx, page)
	time.Sleep(700 * time.Millisecond)
	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	mustAct(t, page, agent.ActFill, "textbox", "Title", "Spectral scan")
	time.Sleep(800 * time.Millisecond)
	cancel()
	streamEnded(t, ended, 3*time.Second)

	all := got.list()
	span := all[len(all)-1].At.Sub(all[0].At)
	if len(all) < 8 || span <= 0 || float64(len(all)-1)/span.Seconds() < 5 {
		t.Fatalf("%d frames over %s: want at least 5 a second", len(all), span)
	}
	for i, f := range all {
		img, err := jpeg.DecodeConfig(bytes.NewReader(f.JPEG))
		if err != nil {
			t.Fatalf("frame %d is no JPEG: %v", i, err)
		}
		if img.Width > streamMaxWidth || img.Height > streamMaxHeight || img.Width < 100 {
			t.Fatalf("frame %d is %dx%d: want within %dx%d", i, img.Width, img.Height, streamMaxWidth, streamMaxHeight)
		}
		if i > 0 && f.At.Before(all[i-1].At) {
			t.Fatalf("frame %d arrived at %s, before frame %d at %s", i, f.At, i-1, all[i-1].At)
		}
	}

	_, ended = streamed(context.Background(), page)
	time.Sleep(300 * time.Millisecond)
	if _, err := page.Close(); err != nil {
		t.Fatal(err)
	}
	streamEnded(t, ended, 3*time.Second)
}
