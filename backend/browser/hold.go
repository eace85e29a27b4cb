package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"observatory/backend/agent"
)

// maxHeldBody bounds how much of a held request's body is read to summarise it; the rest
// goes on unread, as it came.
const maxHeldBody = 64 << 10

// maxHeldSummary bounds the summary of a held request's body shown to the approver.
const maxHeldSummary = 600

// secretValue finds a value named like a secret in a form or JSON body: password=…, "token": "…".
var secretValue = regexp.MustCompile(`(?i)("?[\w.-]*(?:pass(?:word|wd)?|secret|token|api[_-]?key|auth\w*|card|cvc|cvv|pin|otp|ssn)[\w.-]*"?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|[^&,}\s]*)`)

var _ agent.RequestHolder = (*Page)(nil)

// requestHold is what a guard holds: requests of methods wait for ask.
type requestHold struct {
	methods []string
	ask     func(ctx context.Context, r agent.HeldRequest) bool
}

// HoldRequests makes the page's origins guard hold every request of methods that the page
// and the pages its context opens send to an allowed origin until ask answers; a refusal
// fails the request as a network error. It needs the guard, so the page must name origins.
// In a browser launched here the guard reads inside the TLS of the https origins (see
// intercept); in one reached elsewhere it cannot, and the requests to them go unheld (see
// Unheld).
func (p *Page) HoldRequests(methods []string, ask func(ctx context.Context, r agent.HeldRequest) bool) error {
	if p.guard == nil {
		return errors.New("the page has no origins guard to hold its requests at (the task names no origins)")
	}
	p.guard.setHold(&requestHold{methods: methods, ask: ask})
	return nil
}

// setHold sets what the guard holds; nil holds nothing.
func (e *egress) setHold(h *requestHold) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.holds = h
}

// held asks about r when the guard holds its method, and reports whether it may go on. The
// part of its body read for the summary is put back, so it goes on whole.
func (e *egress) held(r *http.Request) bool {
	e.mu.Lock()
	h := e.holds
	e.mu.Unlock()
	if h == nil || !slices.ContainsFunc(h.methods, func(m string) bool { return strings.EqualFold(m, r.Method) }) {
		return true
	}
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(r.Body, maxHeldBody))
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	}
	cookies := map[string]string{}
	for _, c := range r.Cookies() {
		cookies[c.Name] = c.Value
	}
	return h.ask(r.Context(), agent.HeldRequest{Method: r.Method, URL: r.URL.String(),
		Origin: originOf(r.URL.Scheme, r.URL.Host), Body: summariseBody(body, r.ContentLength), Cookies: cookies})
}

// summariseBody is what a held request sends, in at most maxHeldSummary characters, every
// secret-looking value masked; size is its whole length, -1 when unknown.
func summariseBody(body []byte, size int64) string {
	if len(body) == 0 {
		return ""
	}
	if !utf8.Valid(body) && !utf8.Valid(body[:len(body)-min(len(body), utf8.UTFMax)]) {
		return "(" + sizeWords(size, len(body)) + " of binary data)"
	}
	s := secretValue.ReplaceAllString(strings.ToValidUTF8(string(body), ""), "${1}"+agent.Mask)
	if len(s) > maxHeldSummary {
		cut := maxHeldSummary
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "… (" + sizeWords(size, len(body)) + " in all)"
	}
	return s
}

// sizeWords is a body's size in words: size when known, else at least read bytes.
func sizeWords(size int64, read int) string {
	if size >= 0 {
		return fmt.Sprintf("%d bytes", size)
	}
	return fmt.Sprintf("at least %d bytes", read)
}

var _ agent.PartlyHeld = (*Page)(nil)

// Unheld implements agent.PartlyHeld: a browser reached elsewhere (--cdp, a browser server)
// cannot be told to trust the guard's authority, so the requests to the task's https and wss
// origins go through their TLS tunnel unread, and unheld.
func (p *Page) Unheld() string {
	if p.guard == nil || p.guard.inside != nil {
		return ""
	}
	var unread []string
	for _, o := range p.guard.allowed {
		if u, err := url.Parse(o); err == nil && (u.Scheme == "https" || u.Scheme == "wss") {
			unread = append(unread, o)
		}
	}
	if len(unread) == 0 {
		return ""
	}
	return fmt.Sprintf("the requests to %s were not held for approval: the browser was not launched by Observatory, "+
		"so its origins guard cannot read inside their TLS and only tunnels it", strings.Join(unread, ", "))
}
