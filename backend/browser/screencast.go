package browser

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// Bounds of a live frame: the live view is a card and a pane, not the page at full size.
const (
	streamMaxWidth  = 640
	streamMaxHeight = 448
	streamQuality   = 60
)

// ErrNoStream means the page cannot be streamed live: its browser gives no DevTools session
// (a browser server running something other than Chromium).
var ErrNoStream = errors.New("this browser cannot stream its pages live (it offers no DevTools session)")

var _ agent.Streamer = (*Page)(nil)

// Stream sends what the page shows, downscaled, through a DevTools session of its own:
// Chromium's screencast (Page.startScreencast) of the driven tab, each frame acknowledged at
// once, since the browser sends no more until it is. When an agent's driver turns to another
// tab, the screencast stops on the tab left and starts on the new one, whose frames are the
// only ones sent from then on. Watching never touches the page: the stream takes no
// screenshot of its own (a clipped, scaled capture lays the page out at the capture's size
// while Chromium takes it, and an observation taken meanwhile records that layout), sets no
// emulation and shares no settings with a recording. The screencast paints only when the
// page does, so in an interval without a new frame the newest one is sent again: what the
// page shows has not changed, and a watcher that dropped it or joined late gets it. A
// screencast the tab refuses to start (it is between documents as it first navigates) is
// asked for again an interval later. Only the newest frame is kept; one the interval skips
// is dropped. Every DevTools call is bounded and ends with ctx or the page's death, so
// Stream returns promptly when ctx ends or the page closes, crashes or loses its browser.
func (p *Page) Stream(ctx context.Context, interval time.Duration, send func(agent.LiveFrame)) error {
	if err := p.life.err(); err != nil {
		return fmt.Errorf("stream the page: %w", err)
	}
	latest := make(chan agent.LiveFrame, 1)
	tab, _ := p.following()
	dc := &drivenCast{bc: p.bc, lim: p.limits(), tab: tab, frame: func(f agent.LiveFrame) { keepNewest(latest, f) },
		shape: castShape{quality: streamQuality, size: playwright.Size{Width: streamMaxWidth, Height: streamMaxHeight}}}
	if err := dc.ready(ctx); err != nil && dc.c == nil {
		return fmt.Errorf("%w: %w", ErrNoStream, p.fail("open a DevTools session on the page", err))
	}
	defer dc.close(dc.lim.brief())
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var last *agent.LiveFrame // the newest frame sent, sent again while the page paints nothing
	dc.follow(ctx, p, castFollow{stop: ctx.Done(), retry: interval, tick: tick.C,
		moved: func() {
			select { // a frame of the tab left
			case <-latest:
			default:
			}
			last = nil
		},
		beat: func() {
			select {
			case f := <-latest:
				last = &f
			default:
			}
			if last != nil {
				send(*last)
			}
		}})
	return nil
}

// keepNewest puts f in the one-item buffer c, in place of any item still waiting there.
func keepNewest[T any](c chan T, f T) {
	for {
		select {
		case c <- f:
			return
		default:
		}
		select {
		case <-c:
		default:
		}
	}
}

// screencastFrame decodes a Page.screencastFrame event's JPEG, stamped with when it arrived
// (the event's own timestamp is on the browser's clock, not ours).
func screencastFrame(ev map[string]any) (agent.LiveFrame, bool) {
	data, _ := ev["data"].(string)
	img, err := base64.StdEncoding.DecodeString(data)
	if err != nil || len(img) == 0 {
		return agent.LiveFrame{}, false
	}
	return agent.LiveFrame{JPEG: img, At: time.Now()}, true
}
