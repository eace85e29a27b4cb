package browser

import (
	"bytes"
	"context"
	"fmt"
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

// waitFrames waits, a bounded time, until at least n frames have arrived.
func waitFrames(t *testing.T, got *frames, n int) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); len(got.list()) < n; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d frames after 15 s, want %d", len(got.list()), n)
		}
	}
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

// TestStreamFramesAndEnd streams a page that paints nothing new: the stream still refreshes
// (it sends the newest frame again when the screencast sends none), each frame a real JPEG within the
// bounds, timestamps in order; opening a dialog and typing into it goes on streaming. It
// stops at once when its context ends, and when the page closes. How many frames a second it
// keeps up is a benchmark's business (BenchmarkLiveStream in bench/), not a test's.
func TestStreamFramesAndEnd(t *testing.T) {
	page := openLab(t, agent.PageOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	got, ended := streamed(ctx, page)
	waitFrames(t, got, 3) // the page is idle: these are the newest frame again
	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	mustAct(t, page, agent.ActFill, "textbox", "Title", "Spectral scan")
	waitFrames(t, got, len(got.list())+3)
	cancel()
	streamEnded(t, ended, 3*time.Second)

	all := got.list()
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

	got, ended = streamed(context.Background(), page)
	waitFrames(t, got, 1) // the stream is under way when the page closes
	if _, err := page.Close(); err != nil {
		t.Fatal(err)
	}
	streamEnded(t, ended, 3*time.Second)
}

// TestWatchingNeverChangesTheRecording streams a page every 10 ms, mostly idle (where the
// stream once took clipped, scaled captures of its own that laid the page out at their size),
// while the page is changed, observed with screenshots and its field measured, again and
// again: every sample is read at the page's viewport, every screenshot is that size, and
// every box is measured in it, as when nobody watches.
func TestWatchingNeverChangesTheRecording(t *testing.T) {
	page := openLab(t, agent.PageOptions{Media: agent.Media{Screenshots: true}, MediaDir: t.TempDir()})
	want := page.(agent.Sized).Viewport()
	ctx, cancel := context.WithCancel(context.Background())
	got := &frames{}
	ended := make(chan error, 1)
	go func() { ended <- page.(agent.Streamer).Stream(ctx, 10*time.Millisecond, got.add) }()
	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	waitFrames(t, got, 1)
	title := agent.Target{Role: "textbox", Name: "Title"}
	for i := range 40 {
		mustAct(t, page, agent.ActFill, "textbox", "Title", fmt.Sprintf("scan %d", i))
		time.Sleep(time.Duration(i%4) * 15 * time.Millisecond) // idle intervals for the stream
		s := mustObserve(t, page)
		if s.Viewport == nil || *s.Viewport != want {
			t.Errorf("observation %d was read at %+v, want %+v", i, s.Viewport, want)
		}
		if s.ScreenshotSize == nil || *s.ScreenshotSize != want {
			t.Errorf("observation %d's screenshot is %+v, want %+v", i, s.ScreenshotSize, want)
		}
		b, err := page.(agent.Measurer).Measure(context.Background(), title)
		if err != nil {
			t.Fatalf("measure the title field: %v", err)
		}
		if b.ViewportWidth != float64(want.Width) || b.ViewportHeight != float64(want.Height) {
			t.Errorf("measure %d: the box's viewport is %vx%v, want %+v", i, b.ViewportWidth, b.ViewportHeight, want)
		}
	}
	cancel()
	streamEnded(t, ended, 3*time.Second)
}
