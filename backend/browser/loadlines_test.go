package browser

import (
	"testing"
	"time"
)

func TestLoadLinesPairAFailedRequestWithTheBrowsersLine(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	const url = "http://127.0.0.1:8080/api/reservations"
	line := "Failed to load resource: the server responded with a status of 409 (Conflict)"

	t.Run("the request first, then its line", func(t *testing.T) {
		l := newLoadLines()
		l.failed(url, 409, "", false, false, t0)
		if !l.pending(t0.Add(10*time.Millisecond), t0.Add(10*time.Millisecond)) {
			t.Fatal("a 409 recorded without its line does not wait for it")
		}
		l.line("save failed", url, t0) // the page's own words are not the browser's line
		if !l.pending(t0.Add(20*time.Millisecond), t0.Add(20*time.Millisecond)) {
			t.Fatal("a message that is not the browser's load line ended the wait")
		}
		l.line(line, url, t0.Add(30*time.Millisecond))
		if l.pending(t0.Add(40*time.Millisecond), t0.Add(40*time.Millisecond)) {
			t.Fatal("still waiting once the line came")
		}
	})

	t.Run("the line first, then its request", func(t *testing.T) {
		l := newLoadLines()
		l.line(line, url, t0)
		l.failed(url, 409, "", false, false, t0.Add(5*time.Millisecond))
		if l.pending(t0.Add(10*time.Millisecond), t0.Add(10*time.Millisecond)) {
			t.Fatal("the request waits for a line that already came")
		}
	})

	t.Run("two failures of one URL need two lines", func(t *testing.T) {
		l := newLoadLines()
		l.failed(url, 409, "", false, false, t0)
		l.failed(url, 500, "", false, false, t0)
		l.line(line, url, t0)
		if !l.pending(t0.Add(10*time.Millisecond), t0.Add(10*time.Millisecond)) {
			t.Fatal("one line ended the wait of two failed requests")
		}
	})

	t.Run("what the browser writes no line about does not wait", func(t *testing.T) {
		l := newLoadLines()
		l.failed(url, 200, "", false, false, t0)
		l.failed(url, 409, "", false, true, t0) // answered, body never read: no line until it ends
		l.failed(url, 0, "net::ERR_ABORTED", false, false, t0)
		l.failed(url, 0, "net::ERR_CONNECTION_REFUSED", true, false, t0) // a navigation: an error page, no line
		if l.pending(t0, t0) {
			t.Fatal("waits for a line about a success, an unread answer, an abort or a failed navigation")
		}
		l.failed(url, 0, "net::ERR_CONNECTION_REFUSED", false, false, t0)
		if !l.pending(t0, t0) {
			t.Fatal("a refused connection does not wait for its line")
		}
	})

	t.Run("a request recorded after the wait began does not hold it", func(t *testing.T) {
		l := newLoadLines()
		l.failed(url, 404, "", false, false, t0.Add(10*time.Millisecond))
		if l.pending(t0.Add(20*time.Millisecond), t0) {
			t.Fatal("a failure recorded while the step's record waited held it longer")
		}
	})

	t.Run("a line older than lineLag pairs with no later request", func(t *testing.T) {
		l := newLoadLines()
		l.line(line, url, t0)
		l.failed(url, 409, "", false, false, t0.Add(lineLag))
		if !l.pending(t0.Add(lineLag), t0.Add(lineLag)) {
			t.Fatal("a request paired with a line from before lineLag, its own line still to come")
		}
	})

	t.Run("a line that never comes is waited for lineLag, then forgotten", func(t *testing.T) {
		l := newLoadLines()
		l.failed(url, 404, "", true, false, t0) // a page answered 404: the browser writes a line
		l.line(line, "http://127.0.0.1:8080/other", t0)
		if !l.pending(t0.Add(lineLag-time.Millisecond), t0.Add(lineLag-time.Millisecond)) {
			t.Fatal("stopped waiting before lineLag")
		}
		if l.pending(t0.Add(lineLag), t0.Add(lineLag)) {
			t.Fatal("still waiting after lineLag")
		}
		if len(l.heard)+len(l.waiting) != 0 {
			t.Fatalf("kept %v and %v past lineLag", l.heard, l.waiting)
		}
	})
}
