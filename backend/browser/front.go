package browser

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// front is the DevTools endpoint an outside agent is handed for an attempt's own browser: a
// proxy in front of the browser's DevTools port that passes every DevTools message on as it
// came, except the commands that would take a page out of the attempt's origins guard or out
// of its recorder, which it answers itself with an error the agent sees (see refused). The
// browser's HTTP endpoints (/json/version, /json/list) answer through it with its own address,
// since Chromium builds the WebSocket addresses it states from the request's Host.
type front struct {
	ln      net.Listener
	srv     *http.Server
	browser string // the browser's DevTools address, 127.0.0.1:PORT
	up      websocket.Upgrader
	mu      sync.Mutex
	conns   map[*websocket.Conn]struct{}
	closed  bool
}

// frontDialTimeout bounds connecting to the browser's DevTools WebSocket.
const frontDialTimeout = 10 * time.Second

// startFront starts the front of the browser whose DevTools port listens at browser.
func startFront(browser string) (*front, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the agent's DevTools connections: %w", err)
	}
	f := &front{ln: ln, browser: browser, conns: map[*websocket.Conn]struct{}{}}
	f.up = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }} // see fromPage
	target := &url.URL{Scheme: "http", Host: browser}
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(target)
		pr.Out.Host = pr.In.Host // the addresses the browser states are the front's
	}}
	f.srv = &http.Server{ReadHeaderTimeout: guardHeaderTimeout, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fromPage(r) {
			http.Error(w, "a web page may not drive the browser", http.StatusForbidden)
			return
		}
		if websocket.IsWebSocketUpgrade(r) {
			f.relay(w, r)
			return
		}
		rp.ServeHTTP(w, r)
	})}
	go func() { _ = f.srv.Serve(ln) }()
	return f, nil
}

// fromPage reports whether r comes from a web page: it carries an Origin or the fetch
// metadata a browser adds to every request (Sec-Fetch-Dest, Sec-Fetch-Site; Node's fetch
// sends only Sec-Fetch-Mode),
// and not an extension's origin. A page may not drive the browser, as Chromium itself refuses
// it; an extension the agent loaded may (Stagehand's opens its own DevTools connection).
func fromPage(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if strings.HasPrefix(origin, "chrome-extension://") {
		return false
	}
	return origin != "" || r.Header.Get("Sec-Fetch-Dest") != "" || r.Header.Get("Sec-Fetch-Site") != ""
}

// URL is the endpoint handed to the agent, http://127.0.0.1:PORT.
func (f *front) URL() string { return "http://" + f.ln.Addr().String() }

// Close stops the front and cuts every connection through it.
func (f *front) Close() {
	f.mu.Lock()
	f.closed = true
	for c := range f.conns {
		_ = c.Close()
	}
	f.mu.Unlock()
	_ = f.srv.Close()
}

// keep tracks c until the front closes; false when it has closed already.
func (f *front) keep(c *websocket.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.conns[c] = struct{}{}
	return true
}

// relay connects the agent's WebSocket at r to the browser's at the same path and passes
// messages both ways, answering the refused commands itself.
func (f *front) relay(w http.ResponseWriter, r *http.Request) {
	dialer := websocket.Dialer{HandshakeTimeout: frontDialTimeout}
	up, resp, err := dialer.Dial("ws://"+f.browser+r.URL.RequestURI(), nil)
	if err != nil {
		status := http.StatusBadGateway
		if resp != nil {
			status = resp.StatusCode
		}
		http.Error(w, "the browser's DevTools endpoint refused the connection: "+err.Error(), status)
		return
	}
	down, err := f.up.Upgrade(w, r, nil)
	if err != nil {
		_ = up.Close()
		return
	}
	if !f.keep(up) || !f.keep(down) {
		_ = up.Close()
		_ = down.Close()
		return
	}
	var writeDown sync.Mutex // the browser's messages and the front's refusals share the agent's side
	go func() {
		defer down.Close()
		for {
			kind, msg, err := up.ReadMessage()
			if err != nil {
				return
			}
			writeDown.Lock()
			err = down.WriteMessage(kind, msg)
			writeDown.Unlock()
			if err != nil {
				return
			}
		}
	}()
	defer up.Close()
	for {
		kind, msg, err := down.ReadMessage()
		if err != nil {
			return
		}
		if answer := refuseAnswer(msg); answer != nil {
			writeDown.Lock()
			err = down.WriteMessage(websocket.TextMessage, answer)
			writeDown.Unlock()
		} else {
			err = up.WriteMessage(kind, msg)
		}
		if err != nil {
			return
		}
	}
}

// command is a DevTools command, as far as the front reads it.
type command struct {
	ID        json.RawMessage `json:"id"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
}

// refuseAnswer is the error answer to msg when it is a command the front refuses, nil when it
// goes on to the browser.
func refuseAnswer(msg []byte) []byte {
	var c command
	if json.Unmarshal(msg, &c) != nil {
		return nil
	}
	why := refused(c)
	if why == "" {
		return nil
	}
	answer := struct {
		ID        json.RawMessage `json:"id"`
		SessionID string          `json:"sessionId,omitempty"`
		Error     struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{ID: c.ID, SessionID: c.SessionID}
	answer.Error.Code = -32000 // the DevTools protocol's server error
	answer.Error.Message = "Observatory refused " + c.Method + ": " + why
	b, _ := json.Marshal(answer)
	return b
}

// refused says why the front refuses c, "" when it does not.
func refused(c command) string {
	switch c.Method {
	case "Target.createBrowserContext":
		// Each page of the attempt's browser is behind its origins guard and recorded: those of
		// its default context. Another context would be neither recorded, nor guarded when it
		// names a proxy of its own.
		return "this browser is the attempt's, and only its default context is behind the task's origins guard and recorded; " +
			"open pages in the default context instead (Puppeteer's browser.newPage(), Playwright's browser.contexts()[0].newPage(), " +
			"Target.createTarget without browserContextId)"
	case "Extensions.loadUnpacked":
		return extensionRefusal(c.Params)
	}
	return ""
}

// extensionRefusal says why the extension c loads is refused: one that may set the browser's
// proxy (the "proxy" permission) would take every page out of the origins guard.
func extensionRefusal(params json.RawMessage) string {
	var p struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(params, &p) != nil || p.Path == "" {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(p.Path, "manifest.json"))
	if err != nil {
		return "" // the browser says what is wrong with it
	}
	var m struct {
		Permissions         []any `json:"permissions"`
		OptionalPermissions []any `json:"optional_permissions"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return "its manifest.json is not JSON Observatory can read: " + err.Error()
	}
	if slices.ContainsFunc(append(m.Permissions, m.OptionalPermissions...), func(v any) bool {
		s, _ := v.(string)
		return strings.EqualFold(s, "proxy")
	}) {
		return "the extension at " + p.Path + " asks for the \"proxy\" permission, which would let it send the pages around the task's origins guard"
	}
	return ""
}
