package browser

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"observatory/backend/agent"
)

// TestTheGuardHoldsMutatingRequestsForAnAnswer checks that a held method waits for the
// answer, shown with its method, URL, origin and a masked summary of its body: refused, it
// fails before the origin hears of it; approved, it reaches the origin whole. Other methods
// pass without asking.
func TestTheGuardHoldsMutatingRequestsForAnAnswer(t *testing.T) {
	var mu sync.Mutex
	var got []string // the bodies the origin received
	home, reached := counted(t, false, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+string(b))
		mu.Unlock()
	})
	client, _, g := guarded(t, home.URL)
	var askedMu sync.Mutex
	var held []agent.HeldRequest
	var approve atomic.Bool
	g.setHold(&requestHold{methods: agent.HeldMethods, ask: func(_ context.Context, r agent.HeldRequest) bool {
		askedMu.Lock()
		defer askedMu.Unlock()
		held = append(held, r)
		return approve.Load()
	}})
	asked := func() []agent.HeldRequest {
		askedMu.Lock()
		defer askedMu.Unlock()
		return slices.Clone(held)
	}

	form := "title=Spectral+scan&password=hunter2&room=north"
	if _, err := client.Post(home.URL+"/save", "application/x-www-form-urlencoded", strings.NewReader(form)); err == nil {
		t.Fatal("a refused POST got an answer")
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("the origin was reached %d times by a refused request", n)
	}
	if len(asked()) != 1 {
		t.Fatalf("asked %d times, want once", len(asked()))
	}
	a := asked()[0]
	if a.Method != "POST" || a.URL != home.URL+"/save" || a.Origin != home.URL {
		t.Fatalf("asked about %+v", a)
	}
	if want := "title=Spectral+scan&password=" + agent.Mask + "&room=north"; a.Body != want {
		t.Fatalf("the body shown is %q, want %q", a.Body, want)
	}
	if why := g.explain("POST", home.URL+"/save", guardMark); !strings.Contains(why, "not approved") {
		t.Fatalf("the guard explains the failure as %q", why)
	}

	approve.Store(true)
	resp, err := client.Post(home.URL+"/save", "application/json", strings.NewReader(`{"title":"x","api_key":"k-123"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if q := asked(); len(q) != 2 || q[1].Body != `{"title":"x","api_key":`+agent.Mask+`}` {
		t.Fatalf("asked %+v", q)
	}
	resp, err = client.Get(home.URL + "/list")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(asked()) != 2 {
		t.Fatal("a GET was held")
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{`POST {"title":"x","api_key":"k-123"}`, "GET "}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the origin received %q, want %q", got, want)
	}
}

// TestALongBodyIsSummarisedWithinItsBound checks that the approver sees a bounded summary.
func TestALongBodyIsSummarisedWithinItsBound(t *testing.T) {
	s := summariseBody([]byte(strings.Repeat("a", 5000)), 5000)
	if len(s) > maxHeldSummary+40 || !strings.HasSuffix(s, "(5000 bytes in all)") {
		t.Fatalf("summary %q", s)
	}
	if s := summariseBody([]byte{0xff, 0xfe, 0x00, 0x81, 0x90, 0xa0, 0xb0}, 7); s != "(7 bytes of binary data)" {
		t.Fatalf("binary summary %q", s)
	}
}
