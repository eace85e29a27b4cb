package browser

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"

	"observatory/backend/tlsca"
)

// tlsReading is what an origins guard needs to read inside the TLS of the https origins it
// guards: an authority the browser trusts (see Launch), and the roots the origins'
// certificates are verified against.
type tlsReading struct {
	authority *tlsca.Authority
	// roots verify the origins' certificates; nil is the system's.
	roots *x509.CertPool
}

// reads reports whether the guard reads inside a CONNECT to host (host:port): it can read
// TLS, and an https or wss origin of the task lies there. Any other CONNECT is tunnelled.
func (e *egress) reads(host string) bool {
	return e.inside != nil && slices.ContainsFunc([]string{"https", "wss"}, func(scheme string) bool {
		return originAllowed(scheme+"://"+host, e.allowed)
	})
}

// intercept serves a CONNECT to an https origin of the task by ending its TLS here, with a
// certificate for its host that the guard's authority mints: each request the browser then
// sends inside it is read, checked and held as a plain http one is (see serveInside), and
// sent on to the origin over TLS of the guard's own.
func (e *egress) intercept(w http.ResponseWriter, r *http.Request) {
	down, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	if _, err := io.WriteString(down, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		_ = down.Close()
		return
	}
	e.inside.queue.push(&tunnelConn{Conn: down, r: buf.Reader, host: r.Host})
}

// serveInside checks one request read inside the TLS of a CONNECT: it must be for the host the
// CONNECT named (its certificate was minted for that host, and that is where it goes), then
// passes as any request does (see pass).
func (e *egress) serveInside(w http.ResponseWriter, r *http.Request) {
	host, _ := r.Context().Value(tunnelHostKey{}).(string)
	if originOf("https", r.Host) != originOf("https", host) {
		url := "https://" + r.Host + r.URL.RequestURI()
		e.note(r.Method, url, fmt.Sprintf("%s %s was sent inside the TLS opened for %s: the origins guard refused it", r.Method, url, host), true)
		failRequest(w)
		return
	}
	r.URL.Scheme, r.URL.Host = "https", r.Host
	checked := r.URL.String()
	// A WebSocket is an https origin's as a page's fetch is, or a wss origin's of its own.
	if ws := "wss://" + r.Host + r.URL.RequestURI(); strings.EqualFold(r.Header.Get("Upgrade"), "websocket") && originAllowed(ws, e.allowed) {
		checked = ws
	}
	e.pass(w, r, checked, r.URL.String())
}

// insideTLS serves the requests of the CONNECTs a guard intercepts: a server of its own, whose
// listener is fed the hijacked connections and ends their TLS (HTTP/1.1 only, as ALPN says).
type insideTLS struct {
	srv   *http.Server
	queue *connQueue
	// cancel ends the requests in flight, a WebSocket's included, when the guard closes.
	cancel context.CancelFunc
}

// serveInsideTLS starts serving, through handle, the requests inside the TLS of the
// connections pushed to its queue, with certificates authority mints for their CONNECT's host.
func serveInsideTLS(authority *tlsca.Authority, handle http.HandlerFunc) *insideTLS {
	base, cancel := context.WithCancel(context.Background())
	in := &insideTLS{queue: newConnQueue(), cancel: cancel}
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	in.srv = &http.Server{
		Handler:           handle,
		ReadHeaderTimeout: guardHeaderTimeout,
		Protocols:         protocols,
		BaseContext:       func(net.Listener) context.Context { return base },
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if t, ok := tunnelOf(c); ok {
				return context.WithValue(ctx, tunnelHostKey{}, t.host)
			}
			return ctx
		},
		TLSConfig: &tls.Config{
			MinVersion: tls.VersionTLS12,
			GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
				t, ok := tunnelOf(hello.Conn)
				if !ok {
					return nil, errors.New("a connection the guard did not intercept")
				}
				host, _, err := net.SplitHostPort(t.host)
				if err != nil {
					return nil, err
				}
				return authority.Leaf(host)
			},
		},
		ErrorLog: log.New(io.Discard, "", 0), // a page that gives up on a handshake is no news
	}
	go func() { _ = in.srv.ServeTLS(in.queue, "", "") }()
	return in
}

// close ends every intercepted connection, and the requests in flight on them.
func (in *insideTLS) close() {
	in.cancel()
	_ = in.srv.Close()
}

// tunnelHostKey keys the host:port a request's CONNECT named in its context.
type tunnelHostKey struct{}

// tunnelConn is the browser's side of an intercepted CONNECT: what the guard read past the
// CONNECT's head first, then the connection; host is the host:port the CONNECT named.
type tunnelConn struct {
	net.Conn
	r    *bufio.Reader
	host string
}

func (t *tunnelConn) Read(p []byte) (int, error) { return t.r.Read(p) }

// tunnelOf is the tunnelConn under c, a TLS connection's or c itself.
func tunnelOf(c net.Conn) (*tunnelConn, bool) {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	t, ok := c.(*tunnelConn)
	return t, ok
}

// connQueue is a net.Listener that accepts the connections pushed to it.
type connQueue struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newConnQueue() *connQueue {
	return &connQueue{conns: make(chan net.Conn), done: make(chan struct{})}
}

// push hands c to the next Accept; once the queue is closed, it closes c instead.
func (q *connQueue) push(c net.Conn) {
	select {
	case q.conns <- c:
	case <-q.done:
		_ = c.Close()
	}
}

// Accept returns the next connection pushed, or net.ErrClosed once the queue is closed.
func (q *connQueue) Accept() (net.Conn, error) {
	select {
	case c := <-q.conns:
		return c, nil
	case <-q.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept, and push with it.
func (q *connQueue) Close() error {
	q.once.Do(func() { close(q.done) })
	return nil
}

// Addr is no address: the queue's connections come from the guard's own listener.
func (q *connQueue) Addr() net.Addr { return queueAddr{} }

// queueAddr names a connQueue's address.
type queueAddr struct{}

func (queueAddr) Network() string { return "queue" }
func (queueAddr) String() string  { return "intercepted CONNECTs" }
