package runner

import (
	"context"
	"sync"
	"time"

	"observatory/backend/agent"
)

// watch streams page live as Screencast progress every interval, off the attempt's path: a
// frame the watcher is too slow for is dropped, never queued. A page that cannot be
// streamed is reported once, with why. The returned stop ends the stream and waits for it,
// which the page's own bounds keep short; call it before closing the page.
func (r *Runner) watch(ctx context.Context, runID, slug string, page agent.Page, interval time.Duration) (stop func()) {
	s, ok := page.(agent.Streamer)
	if interval <= 0 || r.Emit == nil {
		return func() {}
	}
	if !ok {
		r.emit(Progress{RunID: runID, Kind: Screencast, Slug: slug, Message: "this browser cannot stream its pages live"})
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	newest := make(chan agent.LiveFrame, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer close(newest)
		send := func(f agent.LiveFrame) {
			select {
			case newest <- f:
			default: // the watcher is still busy with the last one
			}
		}
		if err := s.Stream(ctx, interval, send); err != nil {
			r.emit(Progress{RunID: runID, Kind: Screencast, Slug: slug, Message: err.Error()})
		}
	}()
	go func() {
		defer wg.Done()
		for f := range newest {
			r.emit(Progress{RunID: runID, Kind: Screencast, Slug: slug, Live: &f})
		}
	}()
	return func() {
		cancel()
		wg.Wait()
	}
}
