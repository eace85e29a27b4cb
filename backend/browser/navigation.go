package browser

import (
	"context"
	"sync"
	"time"

	"github.com/mxschmitt/playwright-go"
)

// navigation follows the page's main frame: a navigation whose request was sent and whose
// document has not replaced the page yet (a form's POST and its redirect) is pending, and an
// observation waits for it, so that it sees the page the action led to, not the one it left.
type navigation struct {
	mu sync.Mutex
	// settled is closed when the pending navigation commits or fails; nil when none is pending.
	settled chan struct{}
}

// follow starts following pg's main frame, while drives says pg is the driven tab.
func (n *navigation) follow(pg playwright.Page, drives func(playwright.Page) bool) {
	main := func(r playwright.Request) bool {
		return r.IsNavigationRequest() && r.Frame() == pg.MainFrame() && drives(pg)
	}
	pg.OnRequest(func(r playwright.Request) {
		if main(r) {
			n.start()
		}
	})
	pg.OnRequestFailed(func(r playwright.Request) {
		if main(r) {
			n.settle()
		}
	})
	pg.OnFrameNavigated(func(f playwright.Frame) {
		if f == pg.MainFrame() && drives(pg) {
			n.settle()
		}
	})
}

func (n *navigation) start() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.settled == nil {
		n.settled = make(chan struct{})
	}
}

func (n *navigation) settle() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.settled != nil {
		close(n.settled)
		n.settled = nil
	}
}

// wait waits, up to limit, for a pending navigation to commit or fail. One that does neither
// (a response with no content, a download) is no longer waited for after limit.
func (n *navigation) wait(ctx context.Context, gone <-chan struct{}, limit time.Duration) {
	n.mu.Lock()
	settled := n.settled
	n.mu.Unlock()
	if settled == nil {
		return
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-settled:
	case <-t.C:
		n.settle()
	case <-ctx.Done():
	case <-gone:
	}
}
