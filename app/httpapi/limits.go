package httpapi

import (
	"io"
	"net/http"
	"time"
)

// Limits bound how long a client may hold a connection without progress, so that neither an
// idle keep-alive connection nor a stalled upload or download holds the server for good.
type Limits struct {
	// ReadHeader bounds reading a request's header.
	ReadHeader time.Duration
	// Idle bounds how long a keep-alive connection waits for its next request.
	Idle time.Duration
	// Stall bounds how long a request's body may go without a byte arriving, and its
	// response without a byte leaving. Every read and write moves the deadline on, so a
	// slow upload or download that keeps moving is never cut, however long it takes; a
	// stalled one is cut after Stall, its handler's read failing and cleaning up.
	Stall time.Duration
}

// DefaultLimits are serve's limits.
var DefaultLimits = Limits{ReadHeader: 10 * time.Second, Idle: 2 * time.Minute, Stall: 30 * time.Second}

// Server returns the server that serves h under l. Call it once, before serving; the events'
// WebSocket is bounded by its own write deadline rather than by Stall.
func (h *Handler) Server(l Limits) *http.Server {
	h.stall = l.Stall
	return &http.Server{Handler: h, ReadHeaderTimeout: l.ReadHeader, IdleTimeout: l.Idle}
}

// progressing is w and r's body with every read and write first moving the connection's
// deadline stall ahead (none when stall is 0), or, for the events' WebSocket, w and r with the
// deadlines an earlier request on the connection left cleared.
func progressing(w http.ResponseWriter, r *http.Request, stall time.Duration) (http.ResponseWriter, *http.Request) {
	rc := http.NewResponseController(w)
	if stall <= 0 || r.URL.Path == eventsPath {
		_ = rc.SetReadDeadline(time.Time{})
		_ = rc.SetWriteDeadline(time.Time{})
		return w, r
	}
	// A deadline an earlier request on the connection left must not cut this one.
	_ = rc.SetWriteDeadline(time.Time{})
	r.Body = &stallReader{ReadCloser: r.Body, rc: rc, stall: stall}
	return &stallWriter{ResponseWriter: w, rc: rc, stall: stall}, r
}

// stallReader is a request body whose every read may wait stall at most.
type stallReader struct {
	io.ReadCloser
	rc    *http.ResponseController
	stall time.Duration
}

// Read reads under the moved deadline. At the body's end it clears it: the server then reads
// on in the background to notice the client leaving, and a deadline there would cancel the
// request's context while its handler works on what it received.
func (s *stallReader) Read(p []byte) (int, error) {
	_ = s.rc.SetReadDeadline(time.Now().Add(s.stall))
	n, err := s.ReadCloser.Read(p)
	if err == io.EOF {
		_ = s.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// stallWriter is a response whose every write may wait stall at most.
type stallWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	stall time.Duration
}

func (s *stallWriter) Write(p []byte) (int, error) {
	_ = s.rc.SetWriteDeadline(time.Now().Add(s.stall))
	return s.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (s *stallWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
