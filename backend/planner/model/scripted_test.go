package model

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"observatory/backend/planner/model/providertest"
)

// The package's tests speak to providertest's fakes through these small adapters, which keep
// the names the tests were written with.

// reply is one scripted answer of a fake provider: a status (200 when 0), a JSON body, an
// optional delay before answering and extra headers.
type reply struct {
	status int
	body   string
	delay  time.Duration
	header map[string]string
}

func (r reply) fake() providertest.Reply {
	return providertest.Reply{Status: r.status, Body: r.body, Delay: r.delay, Header: r.header}
}

func fromFake(r providertest.Reply) reply {
	return reply{status: r.Status, body: r.Body, delay: r.Delay, header: r.Header}
}

// scripted is a protocol-faithful fake of one provider's API on 127.0.0.1 (see providertest).
type scripted struct {
	*providertest.Server
	api api
}

func newScripted(t *testing.T, a api, replies ...reply) *scripted {
	t.Helper()
	rs := make([]providertest.Reply, len(replies))
	for i, r := range replies {
		rs[i] = r.fake()
	}
	return &scripted{Server: providertest.New(t, a.fake, rs...), api: a}
}

// requests returns the bodies received so far, each decoded into the neutral view.
func (s *scripted) requests() []view {
	reqs := s.Requests()
	out := make([]view, len(reqs))
	for i, r := range reqs {
		out[i] = view(r)
	}
	return out
}

// headers returns the headers of request i.
func (s *scripted) headers(i int) http.Header { return s.Headers(i) }

// model is the ModelConfig pointing at this fake, with its key in keyEnv.
func (s *scripted) model(name, keyEnv string) ModelConfig {
	return ModelConfig{Provider: s.api.provider, BaseURL: s.BaseURL(), Model: name, APIKeyEnv: keyEnv,
		PriceInPerMTok: 2, PriceOutPerMTok: 8}
}

// view is a request as either API sent it (providertest.View); item is one element of its
// conversation.
type (
	view providertest.View
	item = providertest.Item
)

func (v view) firstUser() string       { return providertest.View(v).FirstUser() }
func (v view) checkPairs(t *testing.T) { t.Helper(); providertest.View(v).CheckPairs(t) }

// api describes one provider's wire format for the fake and the assertions.
type api struct {
	name     string
	provider string
	call     func(id, name, args string) reply
	text     func(s string) reply
	refusal  func(s string) reply
	fail     func(status int, msg string) reply
	// key reads the API key a request carried.
	key  func(h http.Header) string
	fake providertest.API
}

func apiOf(f providertest.API) api {
	return api{name: f.Name, provider: f.Provider, fake: f, key: f.Key,
		call:    func(id, name, args string) reply { return fromFake(f.Call(id, name, args)) },
		text:    func(s string) reply { return fromFake(f.Text(s)) },
		refusal: func(s string) reply { return fromFake(f.Refusal(s)) },
		fail:    func(status int, msg string) reply { return fromFake(f.Fail(status, msg)) }}
}

const usageIn, usageOut = providertest.UsageIn, providertest.UsageOut

var (
	openaiAPI    = apiOf(providertest.OpenAI)
	anthropicAPI = apiOf(providertest.Anthropic)
)

var apis = []api{openaiAPI, anthropicAPI}

// clock is a fake clock: Sleep advances it at once and remembers how long.
type clock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func newClock() *clock { return &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.slept = append(c.slept, d)
	return nil
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *clock) sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

// testKey is the API key the tests put in the environment; it must reach the fake in the
// provider's header and nowhere in any record.
const testKey = "sk-test-0123456789abcdef"

// keyEnv names the test's key variable.
const keyEnv = "OBSERVATORY_TEST_MODEL_KEY"

// planner builds a planner for intent on the given fakes, in order, with a fake clock and no
// jitter (each backoff is half its span).
func planner(t *testing.T, intent string, cfg Config, fakes ...*scripted) (*Planner, *clock) {
	t.Helper()
	t.Setenv(keyEnv, testKey)
	for i, f := range fakes {
		cfg.Models = append(cfg.Models, f.model(fmt.Sprintf("model-%d", i+1), keyEnv))
	}
	p, err := New(taskOf(intent), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := newClock()
	p.Now, p.Sleep, p.Jitter = c.Now, c.Sleep, func() float64 { return 0 }
	return p, c
}
