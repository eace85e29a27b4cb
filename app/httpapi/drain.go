package httpapi

import (
	"context"
	"net/http"
	"sync"
)

// files counts the requests under way that hold temporary files in the data folder (an
// upload being received and imported, a bundle being sent), so that a server being stopped
// can wait for them to remove their files.
type files struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n is 0
}

func newFiles() *files {
	f := &files{idle: make(chan struct{})}
	close(f.idle)
	return f
}

// track is next counted while it runs.
func (f *files) track(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		if f.n == 0 {
			f.idle = make(chan struct{})
		}
		f.n++
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			if f.n--; f.n == 0 {
				close(f.idle)
			}
			f.mu.Unlock()
		}()
		next(w, r)
	}
}

// Drain waits until no request holds temporary files, or ctx ends (its error is returned).
// Stop the server first (http.Server.Shutdown, then Close for connections that do not
// finish: closing a connection ends its handler's reads, so the handler cleans up and
// returns).
func (h *Handler) Drain(ctx context.Context) error {
	h.files.mu.Lock()
	idle := h.files.idle
	h.files.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
