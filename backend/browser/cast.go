package browser

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// cast is Chromium's screencast (Page.startScreencast) of one tab, through a DevTools session
// of its own: each frame is acknowledged at once (the browser sends no more until it is), off
// Playwright's dispatch goroutine, and handed to the cast's receiver until the cast closes.
type cast struct {
	session playwright.CDPSession
	stop    chan struct{} // closed, once, when the cast closes: frames are dropped, acknowledging ends
	once    sync.Once
	// handing is held while a frame is checked and handed over, and by close, so no frame
	// is handed over once close returned.
	handing sync.Mutex
}

// openCast opens a DevTools session on pg for a screencast whose frames go to frame. Its calls
// are bounded by lim.
func openCast(ctx context.Context, bc playwright.BrowserContext, pg playwright.Page, lim limits, frame func(agent.LiveFrame)) (*cast, error) {
	session, err := callOwned(ctx, lim, func() (playwright.CDPSession, error) { return bc.NewCDPSession(pg) },
		func(s playwright.CDPSession) { _ = s.Detach() })
	if err != nil {
		return nil, err
	}
	c := &cast{session: session, stop: make(chan struct{})}
	acks := make(chan any, 16)
	session.On("Page.screencastFrame", func(ev map[string]any) {
		c.handing.Lock()
		defer c.handing.Unlock()
		select {
		case <-c.stop: // a frame of a tab the cast left
			return
		default:
		}
		select { // acknowledged by acknowledge, off Playwright's dispatch goroutine
		case acks <- ev["sessionId"]:
		default:
		}
		if f, ok := screencastFrame(ev); ok {
			frame(f)
		}
	})
	go acknowledge(session, lim.brief(), acks, c.stop)
	return c, nil
}

// briefTimeout bounds a screencast's own small calls, its acknowledgements and its close when
// it leaves a tab or ends: a tab left hung must hold up neither the frames of another nor the
// end of what watched it.
const briefTimeout = time.Second

// brief is lim with its deadline cut to briefTimeout.
func (lim limits) brief() limits { return limits{life: lim.life, timeout: briefTimeout} }

// castShape is what a screencast sends: JPEGs of a quality, at most of a size.
type castShape struct {
	quality int
	size    playwright.Size
}

// start starts the screencast, bounded by lim.
func (c *cast) start(ctx context.Context, lim limits, shape castShape) error {
	return do(ctx, lim, func() error {
		_, err := c.session.Send("Page.startScreencast", map[string]any{"format": "jpeg", "quality": shape.quality,
			"maxWidth": shape.size.Width, "maxHeight": shape.size.Height, "everyNthFrame": 1})
		return err
	})
}

// close stops the screencast and detaches its session, bounded by lim; the cast's frames
// and acknowledging end at once.
func (c *cast) close(lim limits) {
	c.once.Do(func() {
		c.handing.Lock()
		close(c.stop)
		c.handing.Unlock()
		_ = do(context.Background(), lim, func() error {
			_, err := c.session.Send("Page.stopScreencast", nil)
			return errors.Join(err, c.session.Detach())
		})
	})
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

// drivenCast keeps a screencast on the tab a page drives (see Page.following): moved to
// another tab, it stops on the one it was on and starts on the new one. Its owner calls it
// from one goroutine.
type drivenCast struct {
	bc    playwright.BrowserContext
	lim   limits
	shape castShape
	frame func(agent.LiveFrame)

	tab     playwright.Page
	c       *cast // nil until opened on tab
	started bool
}

// ready opens the screencast on its tab and starts it, whichever is not done yet; nil once
// it runs. A start the tab refuses (it is between documents) leaves the session open, for
// the caller to ask again.
func (d *drivenCast) ready(ctx context.Context) error {
	if d.c == nil {
		c, err := openCast(ctx, d.bc, d.tab, d.lim, d.frame)
		if err != nil {
			return err
		}
		d.c = c
	}
	if d.started {
		return nil
	}
	err := d.c.start(ctx, d.lim, d.shape)
	d.started = err == nil
	return err
}

// moveTo stops the screencast on the tab it is on, unless that is tab, and makes tab the
// one to start it on (see ready). It reports whether the tab changed.
func (d *drivenCast) moveTo(tab playwright.Page) bool {
	if tab == d.tab {
		return false
	}
	d.close(d.lim.brief()) // a tab left hung must not hold the new one's frames
	d.tab = tab
	return true
}

// castFollow is what a caller of drivenCast.follow does of its own while the screencast
// follows the driven tab.
type castFollow struct {
	stop  <-chan struct{}  // closed when following ends (it ends with the page's death too)
	retry time.Duration    // how soon a start the tab refused is asked for again
	moved func()           // nil, or called when the screencast moved to another tab, before it starts there
	tick  <-chan time.Time // nil, or when beat is called
	beat  func()
}

// follow keeps the screencast on the tab p drives, until own.stop is closed or p dies: when
// an agent's driver turns to another tab, it stops on the tab left and starts on the new one
// (see moveTo and ready). A screencast the tab refuses to start (it is between documents, as
// it first navigates) is asked for again own.retry later, and so is one not running when
// follow begins. The screencast's calls are made under ctx. follow returns when following
// ends; the caller closes the screencast.
func (d *drivenCast) follow(ctx context.Context, p *Page, own castFollow) {
	var retry <-chan time.Time
	start := func() {
		retry = nil
		if d.ready(ctx) != nil {
			retry = time.After(own.retry)
		}
	}
	turn := func(tab playwright.Page) {
		if d.moveTo(tab) && own.moved != nil {
			own.moved()
		}
		start()
	}
	tab, turned := p.following()
	switch {
	case tab != d.tab:
		turn(tab)
	case !d.started:
		retry = time.After(own.retry)
	}
	for {
		select {
		case <-own.stop:
			return
		case <-p.life.done:
			return
		case <-turned:
			tab, turned = p.following()
			turn(tab)
		case <-retry:
			start()
		case <-own.tick:
			own.beat()
		}
	}
}

// close stops the screencast, bounded by lim.
func (d *drivenCast) close(lim limits) {
	if d.c != nil {
		d.c.close(lim)
	}
	d.c, d.started = nil, false
}
