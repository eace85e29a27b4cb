// Package providertest serves protocol-faithful, scripted fakes of the model providers' APIs
// on 127.0.0.1, for tests: OpenAI chat completions with tool calls and Anthropic messages with
// tool_use, non-streaming. Each answers every request with the next scripted reply and keeps
// the request for assertions. The real SDK clients talk to them as to the providers, which
// the machines this is built and tested on cannot reach.
package providertest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Reply is one scripted answer: a status (200 when 0), a JSON body, extra headers, and when
// to answer: after Delay, and not before Hold is closed, if set (to hold a request in flight
// while the test looks at what waits on it).
type Reply struct {
	Status int
	Body   string
	Header map[string]string
	Delay  time.Duration
	Hold   <-chan struct{}
}

// Server is one fake provider on 127.0.0.1, closed when its test ends.
type Server struct {
	// URL is the server's root, as httptest gives it; BaseURL is what a client is pointed at.
	URL string

	t    testing.TB
	api  API
	srv  *httptest.Server
	mu   sync.Mutex
	next []Reply
	reqs []recorded
}

// recorded is one request the fake received.
type recorded struct {
	body   []byte
	header http.Header
}

// New serves api's fake, answering requests with replies in order. A request past the script
// fails the test and is answered 400.
func New(t testing.TB, api API, replies ...Reply) *Server {
	t.Helper()
	s := &Server{t: t, api: api, next: replies}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// BaseURL is the base URL a client of the API is given: ".../v1" for OpenAI, the root for
// Anthropic, as their SDKs expect.
func (s *Server) BaseURL() string { return s.api.BaseURL(s.srv.URL) }

// API is the wire format the server speaks.
func (s *Server) API() API { return s.api }

// Close stops the server: from then on its address answers nothing.
func (s *Server) Close() { s.srv.Close() }

// Push appends replies to the script.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next = append(s.next, replies...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	if r.Method != http.MethodPost || r.URL.Path != s.api.Path {
		s.mu.Unlock()
		s.t.Errorf("%s: unexpected %s %s", s.api.Name, r.Method, r.URL.Path)
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	s.reqs = append(s.reqs, recorded{body: body, header: r.Header.Clone()})
	if len(s.next) == 0 {
		s.mu.Unlock()
		s.t.Errorf("%s: request %d has no scripted reply", s.api.Name, len(s.reqs))
		http.Error(w, `{"error":{"message":"script exhausted"}}`, http.StatusBadRequest)
		return
	}
	rep := s.next[0]
	s.next = s.next[1:]
	s.mu.Unlock()
	if rep.Hold != nil {
		select {
		case <-rep.Hold:
		case <-r.Context().Done():
			return
		}
	}
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.Status == 0 {
		rep.Status = http.StatusOK
	}
	w.WriteHeader(rep.Status)
	_, _ = io.WriteString(w, rep.Body)
}

// Requests returns the requests received so far, each decoded into the neutral View.
func (s *Server) Requests() []View {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]View, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = s.api.View(s.t, r.body)
	}
	return out
}

// Headers returns the headers of request i.
func (s *Server) Headers(i int) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reqs[i].header
}
