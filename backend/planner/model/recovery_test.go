package model

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// click is a valid tool call in a's format.
func click(a api, id string) reply {
	return a.call(id, "click", `{"target":{"role":"button","name":"Reserve slot"},"reason":"Open the dialog."}`)
}

// fake is one configured model in a recovery case: its API and its script.
type fake struct {
	api     api
	replies []reply
}

// TestRecovery checks each kind of provider failure through the real SDK clients: what is
// retried, what rotates, when the planner waits and when it gives up. The clock is fake and
// jitter is off, so each backoff is exactly half its span.
func TestRecovery(t *testing.T) {
	slow := func(a api) reply { r := click(a, "call_slow"); r.delay = 10 * time.Second; return r }
	retryAfter := func(a api, secs string) reply {
		r := a.fail(429, "slow down")
		r.header = map[string]string{"Retry-After": secs}
		return r
	}
	cases := []struct {
		name        string
		models      []fake
		cfg         Config
		wantModel   string // who answered; empty when an error is wanted
		wantRetries int
		wantSleeps  []time.Duration
		wantWaits   []bool
		wantNotes   []string
		// wantOnce are notes that must appear exactly once.
		wantOnce []string
		wantErr  error
	}{
		{name: "500 is retried", models: []fake{{openaiAPI, []reply{openaiAPI.fail(500, "boom"), click(openaiAPI, "c1")}}},
			wantModel: "openai:model-1", wantRetries: 1, wantSleeps: []time.Duration{250 * time.Millisecond},
			wantNotes: []string{"transient (HTTP 500): boom; retry 1 of 3"}},
		{name: "529 overloaded is retried", models: []fake{{anthropicAPI, []reply{anthropicAPI.fail(529, "overloaded"), anthropicAPI.fail(500, "again"), click(anthropicAPI, "c1")}}},
			wantModel: "anthropic:model-1", wantRetries: 2, wantSleeps: []time.Duration{250 * time.Millisecond, 500 * time.Millisecond}},
		{name: "a timeout is retried", models: []fake{{openaiAPI, []reply{slow(openaiAPI), click(openaiAPI, "c1")}}},
			cfg:       Config{Recovery: Recovery{RequestTimeout: time.Second}}, // ample for the prompt answer on a loaded machine
			wantModel: "openai:model-1", wantRetries: 1, wantSleeps: []time.Duration{250 * time.Millisecond},
			wantNotes: []string{"no answer within 1s"}},
		{name: "429 rotates", models: []fake{{openaiAPI, []reply{openaiAPI.fail(429, "rate limited")}}, {openaiAPI, []reply{click(openaiAPI, "c1")}}},
			wantModel: "openai:model-2", wantNotes: []string{"openai:model-1 refused", "rotated from openai:model-1 to openai:model-2"}},
		{name: "a refusal rotates, across providers", models: []fake{{anthropicAPI, []reply{anthropicAPI.refusal("I won't.")}}, {openaiAPI, []reply{click(openaiAPI, "c1")}}},
			wantModel: "openai:model-2", wantNotes: []string{"refusal"}},
		{name: "an OpenAI refusal rotates", models: []fake{{openaiAPI, []reply{openaiAPI.refusal("I can't help with that.")}}, {anthropicAPI, []reply{click(anthropicAPI, "c1")}}},
			wantModel: "anthropic:model-2", wantNotes: []string{"refusal: I can't help with that."}},
		{name: "spent retries rotate", models: []fake{{openaiAPI, []reply{openaiAPI.fail(502, "a"), openaiAPI.fail(503, "b")}}, {openaiAPI, []reply{click(openaiAPI, "c1")}}},
			cfg:       Config{Recovery: Recovery{Retries: 1}},
			wantModel: "openai:model-2", wantRetries: 1, wantSleeps: []time.Duration{250 * time.Millisecond}, wantNotes: []string{"after 1 retries; treated as a refusal"}},
		{name: "all refuse: wait, then resume", models: []fake{{openaiAPI, []reply{openaiAPI.fail(429, "quota"), click(openaiAPI, "c1")}}, {anthropicAPI, []reply{anthropicAPI.fail(429, "busy")}}},
			wantModel: "openai:model-1", wantSleeps: []time.Duration{5 * time.Second}, wantWaits: []bool{true, false},
			wantNotes: []string{"every model refused", "waited 5s"}},
		{name: "Retry-After is honoured", models: []fake{{openaiAPI, []reply{retryAfter(openaiAPI, "7"), click(openaiAPI, "c1")}}},
			wantModel: "openai:model-1", wantSleeps: []time.Duration{7 * time.Second}, wantWaits: []bool{true, false}},
		{name: "the time limit ends the wait", models: []fake{{openaiAPI, []reply{openaiAPI.fail(429, "quota")}}},
			cfg:        Config{TimeLimitMS: 3000},
			wantSleeps: []time.Duration{3 * time.Second}, wantWaits: []bool{true}, wantErr: ErrTimeLimit,
			wantOnce: []string{"every model refused (openai:model-1: refused (HTTP 429): quota); waited 3s"}},
		{name: "a wait of several passes is said once", models: []fake{{openaiAPI, []reply{openaiAPI.fail(429, "quota"), openaiAPI.fail(429, "still"), click(openaiAPI, "c1")}}},
			wantModel: "openai:model-1", wantSleeps: []time.Duration{5 * time.Second, 10 * time.Second}, wantWaits: []bool{true, false},
			wantOnce: []string{"every model refused", "waited 15s in 2 passes"}},
		{name: "a 200 with an unparseable body is retried", models: []fake{{openaiAPI, []reply{{body: `{"id": "chatcmpl-x", "choices": [`}, click(openaiAPI, "c1")}}},
			wantModel: "openai:model-1", wantRetries: 1, wantSleeps: []time.Duration{250 * time.Millisecond}, wantNotes: []string{"retry 1 of 3"}},
		{name: "an unparseable Anthropic message is retried", models: []fake{{anthropicAPI, []reply{{body: `not json at all`}, click(anthropicAPI, "c1")}}},
			wantModel: "anthropic:model-1", wantRetries: 1, wantSleeps: []time.Duration{250 * time.Millisecond}, wantNotes: []string{"retry 1 of 3"}},
		{name: "402 quota rotates", models: []fake{{openaiAPI, []reply{openaiAPI.fail(402, "insufficient_quota: add credits")}}, {anthropicAPI, []reply{click(anthropicAPI, "c1")}}},
			wantModel: "anthropic:model-2", wantNotes: []string{"openai:model-1 refused: refused (HTTP 402): insufficient_quota", "rotated from openai:model-1 to anthropic:model-2"}},
		{name: "a backoff ends by the time limit", models: []fake{{openaiAPI, []reply{openaiAPI.fail(500, "boom")}}},
			cfg:        Config{TimeLimitMS: 1000, Recovery: Recovery{Backoff: 4 * time.Second, MaxBackoff: 8 * time.Second}},
			wantSleeps: []time.Duration{time.Second}, wantErr: ErrTimeLimit, wantNotes: []string{"retry 1 of 3 in 1s"}},
		{name: "every model broken", models: []fake{{openaiAPI, []reply{openaiAPI.fail(401, "bad key")}}, {anthropicAPI, []reply{anthropicAPI.fail(404, "no such model")}}},
			wantErr: ErrNoModel},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var fakes []*scripted
			for _, m := range c.models {
				fakes = append(fakes, newScripted(t, m.api, m.replies...))
			}
			p, clk := planner(t, bookingIntent, c.cfg, fakes...)
			var waits []bool
			p.Hooks.Wait = func(w Wait) {
				waits = append(waits, w.Waiting)
				if w.Waiting && (w.ForMS != c.wantSleeps[0].Milliseconds() || !strings.Contains(w.Reason, "model-1: refused")) {
					t.Errorf("waiting reported as %+v", w)
				}
			}
			prop, err := p.Next(context.Background(), page(0), nil)
			for i, f := range fakes {
				if n := len(f.requests()); n != len(c.models[i].replies) {
					t.Errorf("model %d got %d requests, scripted %d", i+1, n, len(c.models[i].replies))
				}
				for _, r := range f.requests() {
					r.checkPairs(t)
					if r.firstUser() != bookingIntent {
						t.Errorf("model %d: first user message %q", i+1, r.firstUser())
					}
				}
			}
			turns := p.Turns()
			last := turns[len(turns)-1]
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) || last.Error == "" {
					t.Fatalf("error %v (last turn %+v), want %v recorded", err, last, c.wantErr)
				}
				if !slices.EqualFunc(prop.Turns, turns, func(a, b agent.ModelTurn) bool { return a.Error == b.Error && slices.Equal(a.Notes, b.Notes) }) {
					t.Errorf("planning ended with turns %+v, want the step's turns %+v", prop.Turns, turns)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if prop.Action.Kind != agent.ActClick || last.Model != c.wantModel || last.Retries != c.wantRetries {
					t.Errorf("proposal %+v from %s after %d retries; want a click from %s after %d", prop.Action, last.Model, last.Retries, c.wantModel, c.wantRetries)
				}
			}
			if got := clk.sleeps(); !slices.Equal(got, c.wantSleeps) {
				t.Errorf("slept %v, want %v", got, c.wantSleeps)
			}
			if !slices.Equal(waits, c.wantWaits) {
				t.Errorf("wait reports %v, want %v", waits, c.wantWaits)
			}
			notes := strings.Join(last.Notes, "\n")
			for _, n := range c.wantNotes {
				if !strings.Contains(notes, n) {
					t.Errorf("notes %q lack %q", notes, n)
				}
			}
			for _, n := range c.wantOnce {
				if k := strings.Count(notes, n); k != 1 {
					t.Errorf("notes %q say %q %d times, want once", notes, n, k)
				}
			}
			if strings.Contains(notes, testKey) {
				t.Error("notes show the key")
			}
		})
	}
}

// TestBackoffJitter checks the backoff's bounds: doubling from Backoff, capped at MaxBackoff,
// and jitter keeping each delay between half and all of its span.
func TestBackoffJitter(t *testing.T) {
	p := newPlanner("x", Config{Recovery: Recovery{Backoff: 100 * time.Millisecond, MaxBackoff: time.Second}}, nil)
	for _, c := range []struct {
		n      int
		jitter float64
		want   time.Duration
	}{
		{1, 0, 50 * time.Millisecond}, {1, 0.999999, 100 * time.Millisecond}, {2, 0.5, 150 * time.Millisecond},
		{3, 0, 200 * time.Millisecond}, {10, 0, 500 * time.Millisecond}, {40, 0.5, 750 * time.Millisecond},
	} {
		p.Jitter = func() float64 { return c.jitter }
		if got := p.backoff(c.n); got.Round(time.Millisecond) != c.want {
			t.Errorf("backoff(%d) with jitter %v = %s, want %s", c.n, c.jitter, got, c.want)
		}
	}
}

// panicky is a provider whose client panics on its first request and then answers with a
// click.
type panicky struct{ calls int }

func (f *panicky) complete(context.Context, request) (response, error) {
	f.calls++
	if f.calls == 1 {
		panic("decoder bug")
	}
	return response{Calls: []toolCall{{ID: "c1", Name: "click", Args: `{"target":{"text":"Go"},"reason":"go"}`}}}, nil
}

// TestClientPanicIsRetried checks that a panic inside a provider's client becomes a retried
// error, not a crash.
func TestClientPanicIsRetried(t *testing.T) {
	f := &panicky{}
	clk := newClock()
	p := newPlanner(bookingIntent, Config{Models: []ModelConfig{{Provider: ProviderOpenAI, Model: "m"}}}, []provider{f})
	p.Now, p.Sleep, p.Jitter = clk.Now, clk.Sleep, func() float64 { return 0 }
	prop, err := p.Next(context.Background(), page(0), nil)
	if err != nil || prop.Action.Kind != agent.ActClick || f.calls != 2 {
		t.Fatalf("proposal %+v, %v after %d calls", prop, err, f.calls)
	}
	if notes := strings.Join(p.Turns()[0].Notes, " "); !strings.Contains(notes, "the openai client panicked: decoder bug; retry 1 of 3") {
		t.Errorf("notes %q", notes)
	}
}
