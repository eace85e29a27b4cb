package browser

import (
	"strings"
	"time"
)

// lineLag bounds how long a step's record waits for the browser's own console line about a
// failed load once the request was recorded.
const lineLag = time.Second

// loadLinePrefix starts the line Chromium writes to the console for a load that failed or was
// answered with an error status.
const loadLinePrefix = "Failed to load resource"

// loadLines pairs the browser's console line for a failed load with the request it is about,
// so that a step's record waits, a bounded time, for the line of each failed request it holds.
// The renderer writes the line on a path of its own, apart from the network's events: under
// load it came after the step holding its request was handed over, and so was shown on the
// next step. Both sides are keyed by URL, as the line names its request only by its location.
// Its methods are called with watch.mu held.
type loadLines struct {
	heard   map[string][]time.Time // lines not yet paired, by URL: when each came
	waiting map[string][]time.Time // failed requests not yet paired, by URL: when each was recorded
}

// newLoadLines pairs nothing yet.
func newLoadLines() loadLines {
	return loadLines{heard: map[string][]time.Time{}, waiting: map[string][]time.Time{}}
}

// line takes a console message: a load line pairs with a failed request waiting for it, or
// waits for its request to be recorded.
func (l loadLines) line(text, url string, at time.Time) {
	if url == "" || !strings.HasPrefix(text, loadLinePrefix) {
		return
	}
	if !pop(l.waiting, url, at) {
		l.heard[url] = append(l.heard[url], at)
	}
}

// failed takes a request recorded at the time given, if the browser writes a line about it:
// one answered with an error status and read, or a resource the network failed, but not one
// the page itself aborted, nor a navigation that failed (the browser shows an error page and
// writes nothing).
func (l loadLines) failed(url string, status int, failure string, navigation, unread bool, at time.Time) {
	lined := (status >= 400 && !unread) || (failure != "" && !navigation && !strings.Contains(failure, "ERR_ABORTED"))
	if !lined || pop(l.heard, url, at) {
		return
	}
	l.waiting[url] = append(l.waiting[url], at)
}

// pending says whether a failed request recorded by since, less than lineLag before now,
// still waits for its line; it forgets the requests and lines older than that, which will
// never pair. Requests recorded after since do not count, so a page that keeps failing
// requests the browser writes no line about holds a step's record one lineLag at most.
func (l loadLines) pending(now, since time.Time) bool {
	expire(l.heard, now)
	expire(l.waiting, now)
	for _, ts := range l.waiting {
		if !ts[0].After(since) {
			return true
		}
	}
	return false
}

// pop removes the oldest time under url less than lineLag before now, forgetting older ones,
// and says whether there was one.
func pop(m map[string][]time.Time, url string, now time.Time) bool {
	ts := fresh(m[url], now)
	if len(ts) == 0 {
		delete(m, url)
		return false
	}
	if len(ts) == 1 {
		delete(m, url)
	} else {
		m[url] = ts[1:]
	}
	return true
}

// expire drops the times lineLag or more before now.
func expire(m map[string][]time.Time, now time.Time) {
	for url, ts := range m {
		if ts = fresh(ts, now); len(ts) == 0 {
			delete(m, url)
		} else {
			m[url] = ts
		}
	}
}

// fresh is ts (oldest first) without the times lineLag or more before now.
func fresh(ts []time.Time, now time.Time) []time.Time {
	for len(ts) > 0 && now.Sub(ts[0]) >= lineLag {
		ts = ts[1:]
	}
	return ts
}
