package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"observatory/backend/agent"
)

// HTTP asks an endpoint and judges the response with a CEL expression over status (int) and
// body (the decoded JSON when the response says it is JSON, else the text).
type HTTP struct {
	method string
	url    string
	// headers are names and values; values may hold ${NAME} references.
	headers [][2]string
	celCheck
	// pick, when set, is what of the body the answer keeps; limit bounds what it keeps, in
	// bytes of JSON.
	pick  *Pick
	limit int
}

// MaxEvidenceKiB is the most a condition may keep of a response, in KiB.
const MaxEvidenceKiB = 1024

// methods an oracle may use: it reads state, it never changes it.
var methods = []string{http.MethodGet, http.MethodHead}

// NewHTTP compiles an HTTP condition. method is GET (the default) or HEAD; rawURL is absolute
// or relative to the reader's base; header values may use ${NAME}. Errors are *FieldError.
func NewHTTP(method, rawURL string, headers map[string]string, expr string) (*HTTP, error) {
	if method == "" {
		method = http.MethodGet
	}
	if !slices.Contains(methods, method) {
		return nil, fieldErr("method", "%q: want GET or HEAD; an oracle reads state and never changes it", method)
	}
	if rawURL == "" {
		return nil, fieldErr("url", "give the URL to ask")
	}
	h := &HTTP{method: method, url: rawURL, limit: MaxBody}
	for _, name := range slices.Sorted(maps.Keys(headers)) {
		if !validHeaderName(name) {
			return nil, fieldErr("headers", "%q is not a header name", name)
		}
		if _, err := EnvRefs(headers[name]); err != nil {
			return nil, fieldErr("headers."+name, "%v", err)
		}
		h.headers = append(h.headers, [2]string{name, headers[name]})
	}
	e, err := compile(httpEnv, expr)
	if err != nil {
		return nil, fieldErr("expr", "%v", err)
	}
	h.expr = e
	return h, nil
}

// WithEvidence sets what the condition keeps of a response: pick, a CEL expression over
// status and body whose value replaces the body (empty keeps the whole body), and kib, the
// bound on what is kept, in KiB (0 keeps MaxBody). The bound applies after the pick, so a
// large answer can be judged on the part the expression needs. Errors are *FieldError.
func (h *HTTP) WithEvidence(pick string, kib int) (*HTTP, error) {
	if kib < 0 || kib > MaxEvidenceKiB {
		return nil, fieldErr("evidence_kib", "%d: want 1 to %d", kib, MaxEvidenceKiB)
	}
	if kib > 0 {
		h.limit = kib << 10
	}
	if pick != "" {
		p, err := compilePick(pick)
		if err != nil {
			return nil, fieldErr("pick", "%v", err)
		}
		h.pick = p
	}
	return h, nil
}

// Kind is KindHTTP.
func (*HTTP) Kind() string { return KindHTTP }

// URL is the URL as written, perhaps relative.
func (h *HTTP) URL() string { return h.url }

// Env lists the environment variables the headers read.
func (h *HTTP) Env() []string {
	var names []string
	for _, kv := range h.headers {
		refs, _ := EnvRefs(kv[1]) // checked by NewHTTP
		names = append(names, refs...)
	}
	return names
}

// httpAnswer is an HTTP condition's raw answer. Body is the decoded JSON value, or the text
// as a JSON string; when the text is not valid UTF-8 it is dropped and BodyError says so.
type httpAnswer struct {
	Status      int             `json:"status"`
	ContentType string          `json:"content_type,omitempty"`
	Body        json.RawMessage `json:"body,omitempty"`
	// Truncated means what the condition keeps of the body (all of it, or its pick) was over
	// its evidence bound; Body holds the start of it as text.
	Truncated bool `json:"truncated,omitempty"`
	// BodyError says why the body cannot be judged (a JSON response that does not parse).
	BodyError string `json:"body_error,omitempty"`
}

func (h *HTTP) ask(ctx context.Context, r *round) (json.RawMessage, error) {
	u, err := r.rd.resolve(h.url)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, h.method, u.String(), nil)
	if err != nil {
		return nil, err
	}
	for _, kv := range h.headers {
		v, err := r.rd.expand(kv[1])
		if err != nil {
			return nil, fmt.Errorf("header %s: %w", kv[0], err)
		}
		req.Header.Set(kv[0], v)
	}
	req.Header.Set("Accept", "application/json, text/plain;q=0.9, */*;q=0.5")
	res, err := r.do(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", h.method, u.Redacted(), netWords(err))
	}
	return h.answerOf(res, r.rd.site.Secrets)
}

// answerOf records a response as an httpAnswer, with secrets redacted from the body: the
// whole body or its pick, at most the condition's evidence bound of it.
func (h *HTTP) answerOf(res response, secrets []string) (json.RawMessage, error) {
	a := httpAnswer{Status: res.status, ContentType: res.contentType, Truncated: res.truncated}
	var body any
	switch {
	case !utf8.Valid(res.body):
		a.BodyError = "the body is not UTF-8 text"
	case res.truncated:
		body = string(res.body[:min(len(res.body), h.limit)])
	case isJSON(res.contentType):
		v, err := decodeJSON(res.body)
		if err != nil {
			a.BodyError = fmt.Sprintf("the response says it is JSON but is not: %v", err)
			body = string(res.body)
		} else {
			body = v
		}
	default:
		body = string(res.body)
	}
	if h.pick != nil && body != nil && !a.Truncated && a.BodyError == "" {
		v, err := h.pick.of(res.status, body)
		if err != nil {
			a.BodyError = err.Error()
		}
		body = v
	}
	if body != nil {
		b, err := encode(redact(body, secrets))
		if err != nil {
			return nil, err
		}
		if len(b) > h.limit {
			a.Truncated = true
			if b, err = encode(strings.ToValidUTF8(string(b[:h.limit]), "")); err != nil {
				return nil, err
			}
		}
		a.Body = b
	}
	return encode(a)
}

// isJSON reports whether a Content-Type is JSON: application/json or any +json type.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// Judge evaluates the expression on a recorded response.
func (h *HTTP) Judge(raw json.RawMessage) agent.Verdict { return h.withCheck(h.judge(raw)) }

func (h *HTTP) judge(raw json.RawMessage) agent.Verdict {
	var a httpAnswer
	if err := unmarshalAnswer(raw, &a); err != nil {
		return agent.Unconfirmed(err.Error())
	}
	switch {
	case a.Truncated:
		return agent.Unconfirmed(fmt.Sprintf("status %d, but what the condition keeps of the body is over %d KiB, more than its evidence bound (pick what the expression needs, or raise evidence_kib)", a.Status, h.limit>>10))
	case a.BodyError != "":
		return agent.Unconfirmed(fmt.Sprintf("status %d, but %s", a.Status, a.BodyError))
	}
	var body any = ""
	if len(a.Body) > 0 {
		v, err := decodeJSON(a.Body)
		if err != nil {
			return agent.Unconfirmed("the recorded body is not JSON: " + err.Error())
		}
		body = v
	}
	v, err := h.expr.verdict(map[string]any{"status": int64(a.Status), "body": body}, fmt.Sprintf("status %d", a.Status))
	if err != nil {
		return agent.Unconfirmed(err.Error())
	}
	return v
}

// validHeaderName reports whether name is an HTTP token.
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if c > 127 || !strings.ContainsRune("!#$%&'*+-.^_`|~", c) && !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}
