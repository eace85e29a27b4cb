package labkit

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Server serves a lab's handler on an ephemeral port of 127.0.0.1 and counts the requests
// it is handling.
type Server struct {
	name string
	url  string
	srv  *http.Server

	mu       sync.Mutex
	inflight int
	idle     chan struct{} // closed whenever inflight is 0
}

// Serve starts serving h; name says whose server it is in errors ("outbox lab").
func Serve(name string, h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("%s: listen on 127.0.0.1: %w", name, err)
	}
	idle := make(chan struct{})
	close(idle)
	s := &Server{name: name, url: "http://" + ln.Addr().String() + "/", idle: idle}
	s.srv = &http.Server{Handler: s.track(h), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.srv.Serve(ln) }() // returns http.ErrServerClosed on Close
	return s, nil
}

// URL is the server's base address, ending in a slash.
func (s *Server) URL() string { return s.url }

// Quiesce waits until no request is being handled, or ctx ends.
func (s *Server) Quiesce(ctx context.Context) error {
	s.mu.Lock()
	idle := s.idle
	s.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: requests still in flight: %w", s.name, ctx.Err())
	}
}

// Close stops the server and drops its open connections.
func (s *Server) Close() error {
	if err := s.srv.Close(); err != nil {
		return fmt.Errorf("%s: close the server: %w", s.name, err)
	}
	return nil
}

// track counts the requests being handled, for Quiesce.
func (s *Server) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.inflight == 0 {
			s.idle = make(chan struct{})
		}
		s.inflight++
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			s.inflight--
			if s.inflight == 0 {
				close(s.idle)
			}
			s.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}
