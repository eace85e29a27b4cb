package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// callTimeout bounds every Playwright call that has no tighter bound of its own: a browser
// that stops answering (a renderer stuck in a loop, a driver wedged) fails the call instead
// of hanging the attempt.
const callTimeout = 30 * time.Second

// closeTimeout bounds closing a page or the browser, which may wait for a video to be
// written; past it the browser is given up on.
const closeTimeout = 15 * time.Second

// lifeline is cut once, with the reason, when what it guards dies: a page crashes or closes,
// Chromium exits, the driver exits. Calls under it fail at once from then on.
type lifeline struct {
	done chan struct{}
	once sync.Once
	why  string // set before done is closed
	// parent is the lifeline l follows (a page's follows its browser's), nil for a root;
	// the death's browser log is kept at the root.
	parent *lifeline
	// detail is the browser log of the first error the death caused that carried one
	// (Playwright appends it to the calls in flight when a browser goes).
	detailMu sync.Mutex
	detail   string
}

func newLifeline() *lifeline { return &lifeline{done: make(chan struct{})} }

// cut marks the lifeline dead for why; only the first reason counts.
func (l *lifeline) cut(why string) {
	l.once.Do(func() {
		l.why = why
		close(l.done)
	})
}

// note keeps detail as the death's browser log if none is kept yet, and reports whether it
// was kept.
func (l *lifeline) note(detail string) bool {
	if l.parent != nil {
		return l.parent.note(detail)
	}
	l.detailMu.Lock()
	defer l.detailMu.Unlock()
	if detail == "" || l.detail != "" {
		return false
	}
	l.detail = detail
	return true
}

// noted is the death's browser log kept by note, "" if none.
func (l *lifeline) noted() string {
	if l.parent != nil {
		return l.parent.noted()
	}
	l.detailMu.Lock()
	defer l.detailMu.Unlock()
	return l.detail
}

// follow cuts l when parent is cut, until l itself is cut, and keeps the death's browser
// log with parent's. Call it before l is used.
func (l *lifeline) follow(parent *lifeline) {
	l.parent = parent
	go func() {
		select {
		case <-parent.done:
			l.cut(parent.why)
		case <-l.done:
		}
	}()
}

// err is agent.ErrBrowserGone with the reason once l is cut, nil before; a nil lifeline is
// never cut.
func (l *lifeline) err() error {
	if l == nil {
		return nil
	}
	select {
	case <-l.done:
		return fmt.Errorf("%w: %s", agent.ErrBrowserGone, l.why)
	default:
		return nil
	}
}

// deathGrace is how long a failed call waits for the event that explains it: Playwright can
// fail a call (the target closed, the connection dropped) a moment before the browser's
// disconnect event or the driver's exit is seen.
const deathGrace = 200 * time.Millisecond

// goneWith returns life's agent.ErrBrowserGone error when life is cut, or is cut within
// deathGrace of a call failing with err, or when err says the target closed; nil otherwise,
// and for context errors.
func goneWith(life *lifeline, err error) error {
	if gone := life.err(); gone != nil {
		return gone
	}
	if isContextErr(err) {
		return nil
	}
	timer := time.NewTimer(deathGrace)
	defer timer.Stop()
	select {
	case <-life.done:
		return life.err()
	case <-timer.C:
	}
	if errors.Is(err, playwright.ErrTargetClosed) {
		return fmt.Errorf("%w: the page, its context or the browser closed", agent.ErrBrowserGone)
	}
	return nil
}

// limits are what every call on a page or browser runs under: its lifeline (nil: none) and
// a deadline.
type limits struct {
	life    *lifeline
	timeout time.Duration
}

// call runs a Playwright call, which knows nothing of contexts, and returns as soon as ctx
// ends, the deadline passes or the lifeline is cut. An abandoned call finishes in the
// background; Playwright fails it when the browser goes or its own timeout passes.
func call[T any](ctx context.Context, lim limits, fn func() (T, error)) (T, error) {
	return callOwned(ctx, lim, fn, nil)
}

// callOwned is call for a call whose result must be released when nobody takes it: release
// runs in the background on the late result of an abandoned call that succeeded.
func callOwned[T any](ctx context.Context, lim limits, fn func() (T, error), release func(T)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if err := lim.life.err(); err != nil {
		return zero, err
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	var cut <-chan struct{} // nil, never ready, without a lifeline
	if lim.life != nil {
		cut = lim.life.done
	}
	timer := time.NewTimer(lim.timeout)
	defer timer.Stop()
	abandon := func(err error) (T, error) {
		if release != nil {
			go func() {
				if r := <-done; r.err == nil {
					release(r.v)
				}
			}()
		}
		return zero, err
	}
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return abandon(ctx.Err())
	case <-cut:
		// The call in flight when the browser died usually fails a moment later with the
		// browser's log appended: wait that long for it, for the attempt's browser log.
		gone := lim.life.err()
		select {
		case r := <-done:
			if r.err == nil && release != nil {
				go release(r.v)
			}
			return zero, withDetail(gone, r.err)
		case <-time.After(deathGrace):
			// Its log, should it come later, is still kept for the calls that follow.
			go func() {
				switch r := <-done; {
				case r.err != nil:
					lim.life.note(detailOf(r.err))
				case release != nil:
					release(r.v)
				}
			}()
			return zero, gone
		}
	case <-timer.C:
		return abandon(fmt.Errorf("no answer from the browser within %s: %w", lim.timeout, context.DeadlineExceeded))
	}
}

// do is call for Playwright calls that return only an error.
func do(ctx context.Context, lim limits, fn func() error) error {
	_, err := call(ctx, lim, func() (struct{}, error) { return struct{}{}, fn() })
	return err
}

// shortError is an error whose message is cut to its first line; it still unwraps to the
// whole error, so errors.Is sees everything, and carries the rest as its browser log (see
// agent.LoggedError).
type shortError struct {
	msg    string
	err    error
	detail string
}

func (e *shortError) Error() string      { return e.msg }
func (e *shortError) Unwrap() error      { return e.err }
func (e *shortError) BrowserLog() string { return e.detail }

var _ agent.LoggedError = (*shortError)(nil)

// shorten cuts err's message to its first line, prefixed with what failed, and keeps the
// rest as the error's browser log, also writing it to log: Playwright appends Chromium's
// launch log and its own call log to errors, kilobytes that belong beside an attempt's
// reason, not in it.
func shorten(log io.Writer, what string, err error) error {
	head, detail := splitDetail(err)
	if detail != "" && log != nil {
		fmt.Fprintf(log, "observatory: %s: %s\n%s\n", what, head, detail)
	}
	return &shortError{msg: what + ": " + head, err: err, detail: detail}
}

// splitDetail splits err's message into its first line and the rest, each trimmed.
func splitDetail(err error) (head, detail string) {
	head, detail, _ = strings.Cut(err.Error(), "\n")
	return strings.TrimSpace(head), strings.TrimSpace(detail)
}

// loggedError is err (one line) carrying detail, the browser log of the Playwright error
// that revealed the browser's death.
type loggedError struct {
	err    error
	detail string
}

func (e *loggedError) Error() string      { return e.err.Error() }
func (e *loggedError) Unwrap() error      { return e.err }
func (e *loggedError) BrowserLog() string { return e.detail }

// withDetail is err carrying the detail of from (see detailOf), if it has any.
func withDetail(err, from error) error {
	if detail := detailOf(from); detail != "" {
		return &loggedError{err: err, detail: detail}
	}
	return err
}

// detailOf is what Playwright appended to err: the browser log an error of this package
// carries, or the lines after the first of a Playwright error; "" for nil.
func detailOf(err error) string {
	if err == nil {
		return ""
	}
	var le agent.LoggedError
	if errors.As(err, &le) {
		return le.BrowserLog()
	}
	_, detail := splitDetail(err)
	return detail
}

// isContextErr reports whether err is a context's cancellation or deadline.
func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
