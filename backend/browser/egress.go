package browser

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"slices"
	"strings"
	"sync"
	"time"

	"observatory/backend/netguard"
)

// egressDialTimeout bounds the origins guard's dialling of an allowed origin.
const egressDialTimeout = 10 * time.Second

// egress is the origins guard of one page: a forward proxy that the page's browser context
// sends every request through (Playwright's per-context proxy, loopback included), so that
// each hop is checked, not only the first one a route sees. A redirect to another origin, a
// subresource, a beacon, a worker's fetch and a WebSocket all come here as requests of their
// own. One to an allowed origin is forwarded as it came, redirects not followed, so the
// browser asks again for the next hop; one outside is refused before anything leaves this
// process, its connection closed without an answer, and handed to block.
type egress struct {
	allowed []string
	block   func(method, url string)
	ln      net.Listener
	srv     *http.Server
	forward *httputil.ReverseProxy
	// dialer connects to the origins; it refuses link-local and metadata addresses unless
	// the task may reach them.
	dialer *net.Dialer

	mu      sync.Mutex
	tunnels map[net.Conn]struct{} // hijacked connections, which srv no longer tracks
	closed  bool
	// failed are the newest requests the guard failed, and why; failures counts them all.
	failed   []guardFailure
	failures int
	// holds are the requests held for the user's answer (see HoldRequests); nil holds none.
	holds *requestHold
	// inside serves the requests read inside the TLS of https origins (see intercept); nil
	// when the guard cannot read TLS, and tunnels it.
	inside *insideTLS
	// through is a host:port the guard tunnels to whatever the task's origins: the DevTools
	// front of an agent's own browser, which an extension the agent loaded connects to (see
	// openOwn); empty for none. Set before the browser uses the guard.
	through string
}

// guardMark is what the browser reports of every request the guard fails (see failRequest):
// an error of its own, which says nothing of why. explain puts the guard's reason in its place.
const guardMark = "net::ERR_RESPONSE_HEADERS_MULTIPLE_CONTENT_LENGTH"

// keptFailures bounds how many of its failures a guard remembers.
const keptFailures = 64

// guardFailure is a request the guard failed, and why, in words a user can act on; refused
// when the guard failed it before sending anything on (see agent.Request.Refused).
type guardFailure struct {
	method, url, why string
	refused          bool
}

// startEgress starts the guard for allowed on host (where the browser reaches this process:
// 127.0.0.1 for a browser on this machine), refusing what lies outside through block. With
// reading, it reads inside the TLS of the https origins it guards (see intercept); nil
// tunnels it unread.
func startEgress(host string, allowed []string, linkLocal bool, reading *tlsReading, block func(method, url string)) (*egress, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, err
	}
	e := &egress{allowed: allowed, block: block, ln: ln, tunnels: map[net.Conn]struct{}{}, dialer: &net.Dialer{Timeout: egressDialTimeout}}
	if !linkLocal {
		e.dialer.Control = netguard.Control // no origin's name may lead to a cloud's credentials
	}
	transport := &http.Transport{
		Proxy:              nil, // never another proxy from the environment: this is the way out
		DialContext:        e.dialer.DialContext,
		DisableCompression: true, // the page's own Accept-Encoding goes through untouched
		// Each request on a connection of its own: Go's transport sends a request again by
		// itself when a reused connection drops (an Idempotency-Key header is enough), and a
		// guard must never send twice what the page sent once.
		DisableKeepAlives: true,
	}
	if reading != nil {
		// HTTP/1.1 to the origin, as the page speaks to the guard, its certificate verified.
		transport.TLSClientConfig = &tls.Config{RootCAs: reading.roots, NextProtos: []string{"http/1.1"}}
	}
	e.forward = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL, pr.Out.Host = pr.In.URL, pr.In.Host
		},
		Transport:     transport,
		FlushInterval: -1, // streamed answers (server-sent events) reach the page as they come
		// The origin gave no answer the guard can pass on (refused, reset, dropped, a garbled
		// response head): the page sees a request that failed, never an answer the origin did
		// not give, and never one the browser sends again by itself (see failRequest).
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			e.note(r.Method, r.URL.String(), "the origin could not be reached: "+dialFailure(err), false)
			failRequest(w)
		},
	}
	e.srv = &http.Server{Handler: e, ReadHeaderTimeout: guardHeaderTimeout}
	if reading != nil {
		e.inside = serveInsideTLS(reading.authority, e.serveInside)
	}
	go func() { _ = e.srv.Serve(ln) }()
	return e, nil
}

// Server is the proxy's address, as Playwright's proxy option takes it.
func (e *egress) Server() string { return "http://" + e.ln.Addr().String() }

// guardHeaderTimeout bounds how long the guard waits for a request's head.
const guardHeaderTimeout = 10 * time.Second

// ServeHTTP checks one request of the page: CONNECT for TLS and WebSockets over TLS, an
// absolute URL for the rest.
func (e *egress) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		if e.reads(r.Host) {
			e.intercept(w, r)
			return
		}
		e.tunnel(w, r)
		return
	}
	if r.URL.Scheme == "" || r.URL.Host == "" { // asked as a server, not as a proxy
		http.Error(w, "this is the origins guard of an Observatory page, not a web server", http.StatusBadRequest)
		return
	}
	e.pass(w, r, r.URL.String(), r.RequestURI) // as the browser wrote it, as its request events do
}

// pass sends r, whose URL is absolute, on to its origin when checked (its URL as the origins
// are checked against) lies within them and the user lets it go if it is held; else it fails
// r, recording it as asked (the request as the page's request events name it).
func (e *egress) pass(w http.ResponseWriter, r *http.Request, checked, asked string) {
	if !originAllowed(checked, e.allowed) {
		e.refuse(w, r.Method, asked)
		return
	}
	if !e.held(r) {
		e.note(r.Method, r.URL.String(), fmt.Sprintf("%s %s was held for the user's approval and not approved: the guard failed it", r.Method, r.URL), true)
		failRequest(w)
		return
	}
	e.forward.ServeHTTP(w, r)
}

// tunnel serves a CONNECT, which TLS and WebSockets ask for, that the guard does not read (see
// reads): the browser names only host and port, so an origin of any scheme at that host and
// port lets it through; the tunnel then carries bytes both ways, unread, until either side ends.
func (e *egress) tunnel(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if host != e.through && !slices.ContainsFunc([]string{"https", "wss", "http", "ws"}, func(scheme string) bool {
		return originAllowed(scheme+"://"+host, e.allowed)
	}) {
		e.refuse(w, r.Method, host)
		return
	}
	up, err := e.dialer.DialContext(r.Context(), "tcp", host)
	if err != nil {
		e.note(r.Method, host, "the origin could not be reached: "+dialFailure(err), false)
		http.Error(w, "the origin could not be reached: "+err.Error(), http.StatusBadGateway)
		return
	}
	down, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	if !e.hold(down, up) {
		return
	}
	defer e.release(down, up)
	if _, err := io.WriteString(down, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, buf); closeWrite(up); done <- struct{}{} }()
	go func() { _, _ = io.Copy(down, up); closeWrite(down); done <- struct{}{} }()
	<-done
	<-done
}

// refuse records the request and fails it (see failRequest), so the browser reports a failed
// request rather than a page the origin never sent.
func (e *egress) refuse(w http.ResponseWriter, method, url string) {
	e.block(method, url)
	e.note(method, url, fmt.Sprintf("%s lies outside the task's origins (%s): the origins guard blocked it", url, strings.Join(e.allowed, ", ")), true)
	failRequest(w)
}

// note remembers why the guard failed a request, and whether it refused it before sending
// anything on.
func (e *egress) note(method, url, why string, refused bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.failed) == keptFailures {
		e.failed = slices.Delete(e.failed, 0, 1)
	}
	e.failed = append(e.failed, guardFailure{method: method, url: url, why: why, refused: refused})
	e.failures++
}

// explain is failure, what the browser said of a failed request, or the guard's reason when
// it was the guard that failed it. A nil guard fails nothing.
func (e *egress) explain(method, url, failure string) string {
	why, _ := e.failure(method, url, failure)
	return why
}

// failure is explain's reason, and whether the guard refused the request before sending
// anything on.
func (e *egress) failure(method, url, failure string) (why string, refused bool) {
	if e == nil || !strings.Contains(failure, guardMark) {
		return failure, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, f := range slices.Backward(e.failed) {
		if f.method == method && f.url == url {
			return f.why, f.refused
		}
	}
	return failure, false
}

// mark counts the failures so far, for firstSince.
func (e *egress) mark() int {
	if e == nil {
		return 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.failures
}

// firstSince is why the guard failed the first request it failed after mark, if it
// remembers one: for a navigation, the document or the redirect's hop that ended it.
func (e *egress) firstSince(mark int) (string, bool) {
	if e == nil {
		return "", false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	newer := e.failures - mark
	if newer <= 0 || newer > len(e.failed) {
		return "", false
	}
	return e.failed[len(e.failed)-newer].why, true
}

// dialFailure is what a dial or an exchange with an origin failed with, without the
// prefixes Go's proxy adds.
func dialFailure(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil && op.Addr != nil {
		return op.Op + " " + op.Addr.String() + ": " + op.Err.Error()
	}
	return err.Error()
}

// failRequest ends the exchange with a response head the browser must refuse (two different
// lengths), then closes the connection. A silent close would not do: a browser whose
// kept-alive connection closes before any byte of the answer sends the request again by
// itself, and a send that reached the origin must not be sent twice by the guard's doing.
func failRequest(w http.ResponseWriter) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // the server closes the connection
	}
	_, _ = buf.WriteString("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
	_ = buf.Flush()
	_ = conn.Close()
}

// hold tracks hijacked connections so that Close can end them; false when the guard is
// already closed (and they are).
func (e *egress) hold(conns ...net.Conn) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		for _, c := range conns {
			_ = c.Close()
		}
		return false
	}
	for _, c := range conns {
		e.tunnels[c] = struct{}{}
	}
	return true
}

// release closes and forgets hijacked connections.
func (e *egress) release(conns ...net.Conn) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
		delete(e.tunnels, c)
	}
}

// Close stops the guard at once: every connection is cut, tunnels included, and requests in
// flight end unanswered. A page whose guard is closed can reach nothing.
func (e *egress) Close() error {
	e.mu.Lock()
	e.closed = true
	for c := range e.tunnels {
		_ = c.Close()
	}
	e.mu.Unlock()
	if e.inside != nil {
		e.inside.close()
	}
	return e.srv.Close()
}

// closeWrite half-closes c when it can, so the other side sees the end of what was sent.
func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
		return
	}
	_ = c.Close()
}

// originOf is raw's origin as the guard compares it: scheme://host[:port], the port left
// out when it is the scheme's default.
func originOf(scheme, host string) string {
	scheme = strings.ToLower(scheme)
	host = strings.ToLower(host)
	if h, port, err := net.SplitHostPort(host); err == nil && port == defaultPort(scheme) {
		host = h
		if strings.Contains(h, ":") {
			host = "[" + h + "]"
		}
	}
	return scheme + "://" + host
}

// defaultPort is the port a scheme's URLs leave out.
func defaultPort(scheme string) string {
	switch scheme {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	}
	return ""
}
