package labkit

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultHost is the address labs listen on unless told otherwise: this machine's loopback.
const DefaultHost = "127.0.0.1"

// CheckHost refuses an address a browser cannot be sent to: a wildcard (0.0.0.0, ::), one
// with a port, or one that is not an IP address or a host name.
func CheckHost(host string) error {
	if ip := net.ParseIP(host); ip != nil {
		if ip.IsUnspecified() {
			return fmt.Errorf("lab host %q is a wildcard a browser cannot be sent to: name this machine's address as the browser reaches it", host)
		}
		return nil
	}
	if host == "" || strings.ContainsAny(host, ":/ ") {
		return fmt.Errorf("lab host %q: want an IP address or a host name, without a port", host)
	}
	return nil
}

// Listen opens an ephemeral port on host (DefaultHost when empty) for the lab called name,
// and returns it with the base address the lab advertises to the browser, ending in a slash.
func Listen(name, host string) (net.Listener, string, error) {
	if host == "" {
		host = DefaultHost
	}
	if err := CheckHost(host); err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, "", fmt.Errorf("%s: listen on %s: %w", name, host, err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return ln, "http://" + net.JoinHostPort(host, port) + "/", nil
}

// Server serves a lab's handler on an ephemeral port and counts the requests it is handling.
type Server struct {
	name string
	url  string
	srv  *http.Server

	mu       sync.Mutex
	inflight int
	idle     chan struct{} // closed whenever inflight is 0
}

// Serve starts serving h on host (see Listen); name says whose server it is in errors
// ("outbox lab").
func Serve(name, host string, h http.Handler) (*Server, error) {
	ln, url, err := Listen(name, host)
	if err != nil {
		return nil, err
	}
	idle := make(chan struct{})
	close(idle)
	s := &Server{name: name, url: url, idle: idle}
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
