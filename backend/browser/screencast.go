package browser

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sync/atomic"
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
// Chromium's screencast (Page.startScreencast), each frame acknowledged at once, since the
// browser sends no more until it is. The screencast paints only when the page does, so in an
// interval without a new frame the stream takes one itself (Page.captureScreenshot): the
// view refreshes at the chosen rate either way. A screencast the page refuses to start (it is
// between documents as it first navigates) is asked for again the next interval. Only the
// newest frame is kept; one the interval skips is dropped, and so is one that arrives after a
// newer one was sent. Every DevTools call is bounded and ends with ctx or the page's death,
// so Stream returns promptly when ctx ends or the page closes, crashes or loses its browser.
func (p *Page) Stream(ctx context.Context, interval time.Duration, send func(agent.LiveFrame)) error {
	if err := p.life.err(); err != nil {
		return fmt.Errorf("stream the page: %w", err)
	}
	session, err := callOwned(ctx, p.limits(), func() (playwright.CDPSession, error) { return p.bc.NewCDPSession(p.page) },
		func(s playwright.CDPSession) { _ = s.Detach() })
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNoStream, p.fail("open a DevTools session on the page", err))
	}
	stop := make(chan struct{})
	latest := make(chan agent.LiveFrame, 1)
	acks := make(chan any, 16)
	var seen atomic.Pointer[visibleArea] // the visible area as the newest screencast frame had it
	session.On("Page.screencastFrame", func(ev map[string]any) {
		select { // acknowledged by acknowledge, off Playwright's dispatch goroutine
		case acks <- ev["sessionId"]:
		default:
		}
		if f, ok := screencastFrame(ev); ok {
			keepNewest(latest, f)
		}
		if v, ok := frameViewport(ev); ok {
			seen.Store(&v)
		}
	})
	lim := limits{life: p.life, timeout: time.Second}
	go acknowledge(session, lim, acks, stop)
	defer func() {
		close(stop)
		_ = do(context.Background(), lim, func() error {
			_, err := session.Send("Page.stopScreencast", nil)
			return errors.Join(err, session.Detach())
		})
	}()
	start := func() bool { // false while the page is between documents: tried again next interval
		return do(ctx, p.limits(), func() error {
			_, err := session.Send("Page.startScreencast", map[string]any{"format": "jpeg", "quality": streamQuality,
				"maxWidth": streamMaxWidth, "maxHeight": streamMaxHeight, "everyNthFrame": 1})
			return err
		}) == nil
	}
	started := start()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var last time.Time // when the newest frame sent was taken: an older one is stale
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-p.life.done:
			return nil
		case <-tick.C:
		}
		if !started {
			started = start()
		}
		f, err := agent.LiveFrame{}, error(nil)
		select {
		case f = <-latest:
		default:
			f, err = capture(ctx, session, p.limits(), seen.Load())
		}
		if err == nil && f.At.After(last) {
			last = f.At
			send(f)
		}
	}
}

// acknowledge tells the browser each screencast frame arrived, until stop is closed.
func acknowledge(session playwright.CDPSession, lim limits, acks <-chan any, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case id := <-acks:
			_ = do(context.Background(), lim, func() error {
				_, err := session.Send("Page.screencastFrameAck", map[string]any{"sessionId": id})
				return err
			})
		}
	}
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

// visibleArea is the visible part of a page, in CSS pixels of the document.
type visibleArea struct{ x, y, w, h float64 }

// frameViewport reads the visible area a screencast frame shows from its metadata.
func frameViewport(ev map[string]any) (visibleArea, bool) {
	meta, _ := ev["metadata"].(map[string]any)
	v := visibleArea{number(meta["scrollOffsetX"]), number(meta["scrollOffsetY"]), number(meta["deviceWidth"]), number(meta["deviceHeight"])}
	return v, v.w > 0 && v.h > 0
}

// capture takes a frame of the visible part of the page, downscaled as the screencast's are:
// the part the newest screencast frame showed (scrolling paints one), else the part the page
// reports, which costs a round trip more.
func capture(ctx context.Context, session playwright.CDPSession, lim limits, seen *visibleArea) (agent.LiveFrame, error) {
	if seen == nil {
		metrics, err := call(ctx, lim, func() (any, error) { return session.Send("Page.getLayoutMetrics", nil) })
		if err != nil {
			return agent.LiveFrame{}, err
		}
		vp, _ := metrics.(map[string]any)["cssVisualViewport"].(map[string]any)
		seen = &visibleArea{number(vp["pageX"]), number(vp["pageY"]), number(vp["clientWidth"]), number(vp["clientHeight"])}
	}
	x, y, w, h := seen.x, seen.y, seen.w, seen.h
	if w <= 0 || h <= 0 {
		return agent.LiveFrame{}, fmt.Errorf("the page has no visible area (%vx%v)", w, h)
	}
	scale := min(streamMaxWidth/w, streamMaxHeight/h, 1)
	at := time.Now()
	shot, err := call(ctx, lim, func() (any, error) {
		return session.Send("Page.captureScreenshot", map[string]any{"format": "jpeg", "quality": streamQuality,
			"clip": map[string]any{"x": x, "y": y, "width": w, "height": h, "scale": scale}})
	})
	if err != nil {
		return agent.LiveFrame{}, err
	}
	data, _ := shot.(map[string]any)["data"].(string)
	img, err := base64.StdEncoding.DecodeString(data)
	if err != nil || len(img) == 0 {
		return agent.LiveFrame{}, fmt.Errorf("the browser sent no image: %v", err)
	}
	return agent.LiveFrame{JPEG: img, At: at}, nil
}

// number is a DevTools number, 0 when absent.
func number(v any) float64 {
	f, _ := v.(float64)
	return f
}
