package model

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestBaseURLFromTheEnvironment points each provider's official SDK client at a scripted
// fake through the variable that SDK reads (OPENAI_BASE_URL, ANTHROPIC_BASE_URL): a model
// without a base URL of its own goes there; one with a base URL keeps it; a variable that is
// not a URL is refused, naming it.
func TestBaseURLFromTheEnvironment(t *testing.T) {
	for _, a := range apis {
		t.Run(a.name, func(t *testing.T) {
			name := baseURLEnv[a.provider]
			fake := newScripted(t, a, click(a, "c1"))
			t.Setenv(name, fake.BaseURL())
			p, err := New(taskOf(bookingIntent), Config{Models: []ModelConfig{{Provider: a.provider, Model: "m"}}})
			if err != nil {
				t.Fatal(err)
			}
			if prop, err := p.Next(context.Background(), page(0), nil); err != nil || prop.Action.Kind != agent.ActClick || len(fake.requests()) != 1 {
				t.Fatalf("through %s: proposal %+v, error %v, %d requests; want the fake's click", name, prop.Action, err, len(fake.requests()))
			}

			own := newScripted(t, a, click(a, "c1"))
			t.Setenv(name, "http://"+closedAddr(t))
			p, err = New(taskOf(bookingIntent), Config{Models: []ModelConfig{own.model("m", "")}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Next(context.Background(), page(0), nil); err != nil || len(own.requests()) != 1 {
				t.Fatalf("a model's own base URL: error %v, %d requests; want the model's own server asked", err, len(own.requests()))
			}

			t.Setenv(name, "api.example.com/v1")
			if _, err := New(taskOf(bookingIntent), Config{Models: []ModelConfig{{Provider: a.provider, Model: "m"}}}); err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("%s that is no URL: error %v, want one naming it", name, err)
			}
		})
	}
}

// silentAPI is an address that accepts connections and never answers, holding each open
// until the test ends.
func silentAPI(t *testing.T) net.Listener {
	t.Helper()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	return silent
}

// TestAnAPIThatDoesNotAnswer asks, through the real SDK clients, an address that accepts
// connections and never answers, and one that refuses them: planning ends within the
// request timeout and its retries, saying the API at that address did not answer, and never
// waits for it as for a rate limit.
func TestAnAPIThatDoesNotAnswer(t *testing.T) {
	silent := silentAPI(t)
	const timeout = 400 * time.Millisecond
	cases := []struct{ name, addr, says string }{
		{"silent", silent.Addr().String(), "no answer within 400ms"},
		{"refused", closedAddr(t), "connection refused"},
	}
	for _, a := range apis {
		for _, c := range cases {
			t.Run(a.name+"/"+c.name, func(t *testing.T) {
				base := "http://" + c.addr
				if a.provider == ProviderOpenAI {
					base += "/v1"
				}
				t.Setenv(baseURLEnv[a.provider], base)
				p, err := New(taskOf(bookingIntent), Config{Models: []ModelConfig{{Provider: a.provider, Model: "m"}},
					Recovery: Recovery{RequestTimeout: timeout, Retries: 2, Backoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond}})
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				_, err = p.Next(context.Background(), page(0), nil)
				took := time.Since(start)
				if !errors.Is(err, ErrNoModel) || !strings.Contains(err.Error(), "the API at "+base+" did not answer, 3 times") || !strings.Contains(err.Error(), c.says) {
					t.Fatalf("error %v; want no model left, the API at %s not answering (%s)", err, base, c.says)
				}
				// Three tries of at most the timeout each, and two short backoffs; the time
				// limit (10 minutes) is never waited out.
				if took > 3*timeout+5*time.Second {
					t.Errorf("planning ended after %v", took)
				}
			})
		}
	}
}

// closedAddr is an address of 127.0.0.1 nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
