package browser

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// detailTimeout bounds the calls that read one finished request's headers, size and bodies;
// settleTimeout bounds how long Traffic waits for those still being read, and for the last
// step's requests still in flight. unreadAfter is how long a request answered but not
// finished may stay so before it is recorded as it stands: the browser finishes a request
// only once the page reads its body, and many pages never read the answer to a save (a
// stream never ends at all).
const (
	detailTimeout = 2 * time.Second
	settleTimeout = 5 * time.Second
	unreadAfter   = 500 * time.Millisecond
)

// watch records a page's requests, console messages and page errors between two calls of
// Traffic, within the limits agent declares per step and per attempt (a page is one
// attempt). Playwright delivers its events on one goroutine; a finished request's headers,
// size and bodies take round trips to the browser, so they are read on a goroutine of their
// own, and Traffic waits for those before it hands the step's record over.
type watch struct {
	bodies bool
	life   *lifeline
	// explain puts the origins guard's reason in place of the browser's word for a request
	// the guard failed, and says whether it refused it before it left (see egress.failure).
	explain func(method, url, failure string) (string, bool)

	mu      sync.Mutex
	started map[playwright.Request]time.Time
	// answered are the started requests whose response headers came: when, and the response
	// the event brought, so that reading its details needs no call to fetch it again. unread
	// are those recorded before they finished (see unreadAfter), whose finishing is then no news.
	answered map[playwright.Request]answer
	unread   map[playwright.Request]bool
	inflight int // requests whose details are being read
	// sent counts the requests the page started; wake is closed, and replaced, whenever a
	// request starts, is answered or ends (see idle).
	sent     int
	wake     chan struct{}
	requests []timed[agent.Request]
	console  []timed[agent.ConsoleMessage]
	errors   []timed[agent.PageError]
	dropped  agent.Dropped
	// kept counts what the attempt kept so far, against the per-attempt limits; bodyBytes
	// the bytes of body text it kept.
	kept      agent.Dropped
	bodyBytes int
	// lines pairs the failed requests with the browser's console lines about them.
	lines loadLines
}

// answer is a request's response, as its event brought it, and when.
type answer struct {
	at   time.Time
	resp playwright.Response
}

// timed is a recorded item with the wall-clock times its milliseconds are counted from.
type timed[T any] struct {
	item       T
	start, end time.Time
}

// newWatch is a recorder of traffic that follows no page yet (see follow).
func newWatch(life *lifeline, bodies bool, explain func(method, url, failure string) (string, bool)) *watch {
	return &watch{bodies: bodies, life: life, explain: explain, started: map[playwright.Request]time.Time{},
		answered: map[playwright.Request]answer{}, unread: map[playwright.Request]bool{}, wake: make(chan struct{}),
		lines: newLoadLines()}
}

// follow records pg's traffic too: the attempt's page, and each tab opened in its context.
func (w *watch) follow(pg playwright.Page) {
	pg.OnRequest(func(r playwright.Request) {
		w.mu.Lock()
		w.started[r] = time.Now()
		w.sent++
		w.changed()
		w.mu.Unlock()
	})
	pg.OnResponse(func(resp playwright.Response) {
		r := resp.Request()
		w.mu.Lock()
		if _, ok := w.started[r]; ok {
			w.answered[r] = answer{time.Now(), resp}
			w.changed()
		}
		w.mu.Unlock()
	})
	pg.OnRequestFinished(func(r playwright.Request) { w.finished(r, false) })
	pg.OnRequestFailed(func(r playwright.Request) { w.finished(r, false) })
	pg.OnConsole(func(m playwright.ConsoleMessage) {
		msg := agent.ConsoleMessage{Level: m.Type(), Text: clip(m.Text(), agent.MaxTextBytes)}
		var url string
		if loc := m.Location(); loc != nil && loc.URL != "" {
			url = loc.URL
			msg.Location = clip(fmt.Sprintf("%s:%d:%d", loc.URL, loc.Line+1, loc.Column+1), agent.MaxTextBytes)
		}
		now := time.Now()
		w.mu.Lock()
		defer w.mu.Unlock()
		w.lines.line(m.Text(), url, now)
		w.console = keep(w.console, timed[agent.ConsoleMessage]{msg, now, now}, &w.kept.Console, &w.dropped.Console)
	})
	pg.OnPageError(func(err error) {
		pe := agent.PageError{Message: err.Error()}
		var pw *playwright.Error
		if errors.As(err, &pw) {
			pe.Message, pe.Stack = pw.Message, pw.Stack
		}
		pe.Message, pe.Stack = clip(pe.Message, agent.MaxTextBytes), clip(pe.Stack, agent.MaxTextBytes)
		now := time.Now()
		w.mu.Lock()
		defer w.mu.Unlock()
		w.errors = keep(w.errors, timed[agent.PageError]{pe, now, now}, &w.kept.Errors, &w.dropped.Errors)
	})
}

// keep appends it to a step's list unless the step or the attempt is full, in which case
// it counts it as dropped.
func keep[T any](list []timed[T], it timed[T], kept, dropped *int) []timed[T] {
	if len(list) >= agent.MaxStepMessages || *kept >= agent.MaxAttemptMessages {
		*dropped++
		return list
	}
	*kept++
	return append(list, it)
}

// finished takes a request that finished or failed and reads its details in the background.
// unread is a request answered whose body the page has not read (see unreadAfter): it is
// recorded as it stands, its finishing later ignored.
func (w *watch) finished(r playwright.Request, unread bool) {
	end := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.finish(r, end, unread)
}

// finish is finished with w.mu held.
func (w *watch) finish(r playwright.Request, end time.Time, unread bool) {
	if w.unread[r] {
		delete(w.unread, r)
		return
	}
	start, ok := w.started[r]
	delete(w.started, r)
	w.changed()
	if !ok {
		start = end
	}
	if t := r.Timing(); t != nil && t.StartTime > 0 {
		start = time.UnixMicro(int64(t.StartTime * 1000)) // when the browser sent it
	}
	if unread {
		w.unread[r] = true
	}
	resp := w.answered[r].resp
	delete(w.answered, r)
	if len(w.requests)+w.inflight >= agent.MaxStepRequests || w.kept.Requests+w.inflight >= agent.MaxAttemptRequests {
		w.dropped.Requests++
		return
	}
	w.inflight++
	go func() {
		req := w.describe(r, resp, unread)
		w.mu.Lock()
		defer w.mu.Unlock()
		w.inflight--
		w.kept.Requests++
		w.requests = append(w.requests, timed[agent.Request]{req, start, end})
		failure := ""
		if err := r.Failure(); err != nil {
			failure = err.Error()
		}
		w.lines.failed(r.URL(), req.Status, failure, r.IsNavigationRequest(), unread, time.Now())
	}()
}

// recordUnread records, with w.mu held, the requests answered longer than unreadAfter ago
// whose bodies the page has not read.
func (w *watch) recordUnread(now time.Time) {
	for r, a := range w.answered {
		if now.Sub(a.at) >= unreadAfter {
			w.finish(r, a.at, true)
		}
	}
}

// describe reads what is recorded of a finished request: the parts a call to the browser
// cannot read in time are left out. resp is its response as the page's event brought it, nil
// when none came (it is then asked for). An unread request's size and response body are not
// asked for: the browser has not received them all.
func (w *watch) describe(r playwright.Request, resp playwright.Response, unread bool) agent.Request {
	lim := limits{life: w.life, timeout: detailTimeout}
	ctx := context.Background()
	req := agent.Request{Method: r.Method(), URL: clip(r.URL(), agent.MaxTextBytes), ResourceType: r.ResourceType(), Size: -1}
	if err := r.Failure(); err != nil {
		why, refused := w.explain(r.Method(), r.URL(), err.Error())
		req.Failure, req.Refused = clip(why, agent.MaxTextBytes), refused
	}
	if hs, err := call(ctx, lim, r.HeadersArray); err == nil {
		req.RequestHeaders = headers(hs)
	} else {
		req.RequestHeaders = headers(mapHeaders(r.Headers()))
	}
	if w.bodies {
		if data, err := r.PostDataBuffer(); err == nil && len(data) > 0 {
			req.RequestBody = w.body(data, agent.HeaderValue(req.RequestHeaders, "content-type"))
		}
	}
	if resp == nil {
		var err error
		if resp, err = call(ctx, lim, r.Response); err != nil || resp == nil {
			return req
		}
	}
	req.Status, req.StatusText = resp.Status(), clip(resp.StatusText(), agent.MaxTextBytes)
	if hs, err := call(ctx, lim, resp.HeadersArray); err == nil {
		req.ResponseHeaders = headers(hs)
	} else {
		req.ResponseHeaders = headers(mapHeaders(resp.Headers()))
	}
	if unread {
		return req
	}
	if req.Failure == "" {
		// A response from the memory cache has a negative size: unknown, as it was not
		// transferred.
		if sz, err := call(ctx, lim, r.Sizes); err == nil && sz.ResponseBodySize >= 0 {
			req.Size = int64(sz.ResponseBodySize)
		}
	}
	if w.bodies && req.Failure == "" {
		if data, err := call(ctx, lim, resp.Body); err == nil && len(data) > 0 {
			req.ResponseBody = w.body(data, agent.HeaderValue(req.ResponseHeaders, "content-type"))
		}
	}
	return req
}

// body keeps data as text, cut at MaxBodyBytes and at what the attempt's budget has left;
// binary data, and anything once the budget is spent, is not kept.
func (w *watch) body(data []byte, mime string) *agent.Body {
	if !utf8.Valid(data) {
		return nil
	}
	w.mu.Lock()
	room := min(agent.MaxBodyBytes, agent.MaxAttemptBodyBytes-w.bodyBytes)
	text := clip(string(data), max(room, 0))
	w.bodyBytes += len(text)
	w.mu.Unlock()
	if text == "" {
		return nil
	}
	return &agent.Body{MimeType: clip(mime, agent.MaxTextBytes), Text: text, Truncated: len(text) < len(data)}
}

// idle waits until no request the page started waits for its answer, woken by the page's
// request and response events, and returns how many requests the page had sent by then. It
// is false when deadline passed, the page died or ctx ended first.
func (w *watch) idle(ctx context.Context, deadline time.Time) (int, bool) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	var gone <-chan struct{} // nil, never ready, without a lifeline
	if w.life != nil {
		gone = w.life.done
	}
	for {
		w.mu.Lock()
		waiting, sent, wake := len(w.started) > len(w.answered), w.sent, w.wake
		w.mu.Unlock()
		if !waiting {
			return sent, true
		}
		select {
		case <-wake:
		case <-timer.C:
			return sent, false
		case <-gone:
			return sent, false
		case <-ctx.Done():
			return sent, false
		}
	}
}

// sentCount is how many requests the page has sent so far.
func (w *watch) sentCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sent
}

// changed wakes, with w.mu held, whoever waits in idle: a request started, was answered or
// ended.
func (w *watch) changed() {
	close(w.wake)
	w.wake = make(chan struct{})
}

// Traffic hands over what was recorded since the last call, times counted from epoch. It
// first waits, a bounded time, for the details of requests that already finished, for those
// already answered to finish (so that what is decided next, such as whether a commit already
// succeeded, sees every answer the page had; not those answered meanwhile, which a page that
// keeps polling would never run out of), and, when final, for the requests still in flight to
// be answered; the page's death ends the wait. A request answered whose body the page leaves
// unread is recorded once unreadAfter passed.
func (w *watch) Traffic(epoch time.Time, final bool) agent.Traffic {
	w.mu.Lock()
	answered := slices.Collect(maps.Keys(w.answered))
	w.mu.Unlock()
	w.await(func() bool {
		return !slices.ContainsFunc(answered, func(r playwright.Request) bool { _, still := w.answered[r]; return still }) &&
			(!final || len(w.started) == 0)
	})
	defer w.mu.Unlock()
	return w.hand(epoch, time.Time{})
}

// TrafficUntil is Traffic for what happened before until, a time the browser gave (the next
// input's): the requests the browser sent before it, and the console messages and page errors
// that came before it; what came later stays for the next call. It first waits, a bounded
// time, for the requests in flight that may have been sent before until to end.
func (w *watch) TrafficUntil(epoch, until time.Time) agent.Traffic {
	w.await(func() bool {
		for _, at := range w.started { // when Observatory heard of it, after the browser sent it
			if at.Before(until.Add(sentLag)) {
				return false
			}
		}
		return true
	})
	defer w.mu.Unlock()
	return w.hand(epoch, until)
}

// sentLag bounds how much later than the browser sent a request Observatory hears of it.
const sentLag = 500 * time.Millisecond

// await waits, at most settleTimeout, until no finished request's details are being read, no
// failed request waits for the browser's console line about it (see loadLines), and done
// holds; it returns with w.mu held.
func (w *watch) await(done func() bool) {
	begun := time.Now()
	deadline := begun.Add(settleTimeout)
	for {
		w.mu.Lock()
		now := time.Now()
		w.recordUnread(now)
		if (w.inflight == 0 && !w.lines.pending(now, begun) && done()) || now.After(deadline) || w.life.err() != nil {
			return
		}
		w.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
}

// hand hands over, with w.mu held, what was recorded before until (all of it when zero).
func (w *watch) hand(epoch, until time.Time) agent.Traffic {
	since := func(t time.Time) int64 { return max(t.Sub(epoch).Milliseconds(), 0) }
	var t agent.Traffic
	w.requests = split(w.requests, until, func(r timed[agent.Request]) {
		r.item.StartMS, r.item.DurationMS = since(r.start), max(r.end.Sub(r.start).Milliseconds(), 0)
		t.Requests = append(t.Requests, r.item)
	})
	w.console = split(w.console, until, func(m timed[agent.ConsoleMessage]) {
		m.item.AtMS = since(m.start)
		t.Console = append(t.Console, m.item)
	})
	w.errors = split(w.errors, until, func(e timed[agent.PageError]) {
		e.item.AtMS = since(e.start)
		t.Errors = append(t.Errors, e.item)
	})
	t.Dropped = w.dropped
	w.dropped = agent.Dropped{}
	return t
}

// split hands each item that started before until (every item when until is zero) to take,
// and returns the others, in order.
func split[T any](list []timed[T], until time.Time, take func(timed[T])) []timed[T] {
	var later []timed[T]
	for _, it := range list {
		if until.IsZero() || it.start.Before(until) {
			take(it)
		} else {
			later = append(later, it)
		}
	}
	return later
}

// headers records at most MaxHeaders headers, values clipped.
func headers(hs []playwright.NameValue) []agent.Header {
	out := make([]agent.Header, 0, min(len(hs), agent.MaxHeaders))
	for _, h := range hs[:min(len(hs), agent.MaxHeaders)] {
		out = append(out, agent.Header{Name: clip(h.Name, agent.MaxTextBytes), Value: clip(h.Value, agent.MaxTextBytes)})
	}
	return out
}

// mapHeaders are the headers Playwright knew without asking the browser.
func mapHeaders(m map[string]string) []playwright.NameValue {
	out := make([]playwright.NameValue, 0, len(m))
	for k, v := range m {
		out = append(out, playwright.NameValue{Name: k, Value: v})
	}
	return out
}

// clip cuts s to at most n bytes without splitting a character.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
