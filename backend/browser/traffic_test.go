package browser

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// trafficServer serves testdata/traffic.html, whose Save button POSTs to /api/save, which
// answers 500, then GETs from a port that refuses connections; posted delivers the POST's
// body as the server saw it.
func trafficServer(tb testing.TB) (url string, posted chan string) {
	tb.Helper()
	posted = make(chan string, 1)
	page, err := os.ReadFile("testdata/traffic.html")
	if err != nil {
		tb.Fatal(err)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // its port now refuses connections
	page = bytes.ReplaceAll(page, []byte("UNREACHABLE"), []byte(closed.URL))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "cookie-value-1"})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("POST /api/save", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		posted <- string(body)
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "cookie-value-2"})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":"the store is down","session":"s-42"}`)
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv.URL, posted
}

// clickSaveAndWait loads the page, clicks Save and waits until the page says it is done,
// which it does after its requests, console messages and uncaught error.
func clickSaveAndWait(t *testing.T, bodies bool) (load, step, next agent.Traffic, posted string) {
	t.Helper()
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Media: agent.Media{Bodies: bodies}})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	url, sent := trafficServer(t)
	epoch := time.Now()
	if err := page.Goto(ctx, url); err != nil {
		t.Fatalf("goto: %v", err)
	}
	w := page.(agent.Watcher)
	load = w.Traffic(epoch, false)
	mustAct(t, page, agent.ActClick, "button", "Save", "")
	deadline := time.Now().Add(10 * time.Second)
	for mustObserve(t, page).Notice != "done" {
		if time.Now().After(deadline) {
			t.Fatal("the page never said done")
		}
		time.Sleep(20 * time.Millisecond)
	}
	step = w.Traffic(epoch, false)
	return load, step, w.Traffic(epoch, false), <-sent
}

func TestTrafficRecordsRequestsConsoleAndErrorsPerStep(t *testing.T) {
	load, step, next, posted := clickSaveAndWait(t, true)
	if !strings.Contains(posted, "hunter2") {
		t.Fatalf("the server saw %q: the page did not send what the test expects", posted)
	}

	// The load belongs to its own call: the document and nothing the click made.
	if len(load.Requests) != 1 || load.Requests[0].ResourceType != "document" || load.Requests[0].Status != 200 {
		t.Fatalf("load recorded %+v, want the one document with 200", load.Requests)
	}
	if len(load.Console)+len(load.Errors) != 0 {
		t.Errorf("load recorded console %v and errors %v, want none", load.Console, load.Errors)
	}

	secrets := []string{"typed-secret-value"}
	red := step.Redact(secrets)
	if len(red.Requests) != 2 {
		t.Fatalf("the click recorded %d requests, want the POST and the unreachable GET: %+v", len(red.Requests), red.Requests)
	}
	var save, lost agent.Request
	for _, r := range red.Requests {
		if r.Method == "POST" {
			save = r
		} else {
			lost = r
		}
	}

	// The POST: every field, with its secrets masked.
	if !strings.HasSuffix(save.URL, "/api/save?token=••••••&q=plain") {
		t.Errorf("POST url %q: want the token masked and q kept", save.URL)
	}
	if save.ResourceType != "fetch" || save.Status != 500 || save.StatusText != "Internal Server Error" || save.Failure != "" {
		t.Errorf("POST: type %q status %d %q failure %q; want fetch, 500 Internal Server Error, no network failure",
			save.ResourceType, save.Status, save.StatusText, save.Failure)
	}
	if want := int64(len(`{"error":"the store is down","session":"s-42"}`)); save.Size != want {
		t.Errorf("POST response size %d, want %d", save.Size, want)
	}
	if save.StartMS <= 0 || save.DurationMS < 0 || save.StartMS > 10000 {
		t.Errorf("POST start %d ms, duration %d ms: want a start after the attempt began, within 10 s", save.StartMS, save.DurationMS)
	}
	for name, want := range map[string]string{"authorization": "••••••", "x-trace": "••••••", "content-type": "application/json"} {
		if got := agent.HeaderValue(save.RequestHeaders, name); got != want {
			t.Errorf("POST request header %s = %q, want %q", name, got, want)
		}
	}
	if got := agent.HeaderValue(save.RequestHeaders, "cookie"); got != "••••••" {
		t.Errorf("POST cookie header %q, want it masked", got)
	}
	if got := agent.HeaderValue(save.ResponseHeaders, "set-cookie"); got != "••••••" {
		t.Errorf("POST set-cookie header %q, want it masked", got)
	}
	if save.RequestBody == nil || save.RequestBody.MimeType != "application/json" ||
		save.RequestBody.Text != `{"name":"North lab","note":"••••••","password":"••••••"}` {
		t.Errorf("POST request body %+v: want the password and the typed secret masked", save.RequestBody)
	}
	if save.ResponseBody == nil || save.ResponseBody.Text != `{"error":"the store is down","session":"••••••"}` || save.ResponseBody.Truncated {
		t.Errorf("POST response body %+v: want the session masked", save.ResponseBody)
	}
	for _, text := range []string{"hunter2", "sekrit", "tok-123", "typed-secret-value", "cookie-value", "s-42"} {
		for _, r := range red.Requests {
			for _, h := range append(r.RequestHeaders, r.ResponseHeaders...) {
				if strings.Contains(h.Value, text) {
					t.Errorf("header %s still shows %q", h.Name, text)
				}
			}
		}
	}

	// The unreachable GET: failed in the network, no response.
	if lost.Method != "GET" || !strings.HasSuffix(lost.URL, "/unreachable") || lost.Status != 0 ||
		!strings.Contains(lost.Failure, "ERR_CONNECTION_REFUSED") || lost.Size != -1 {
		t.Errorf("unreachable GET %+v: want no status, size unknown, a connection-refused failure", lost)
	}

	// Console: the browser's own line for the 500, the page's error with its location, the
	// browser's line for the refused GET, the page's warning.
	want := []struct{ level, text string }{
		{"error", "Failed to load resource: the server responded with a status of 500 (Internal Server Error)"},
		{"error", "save failed with 500"},
		{"error", "Failed to load resource: net::ERR_CONNECTION_REFUSED"},
		{"warning", "unreachable: Failed to fetch"},
	}
	if len(red.Console) != len(want) {
		t.Fatalf("console %+v, want %d messages", red.Console, len(want))
	}
	for i, w := range want {
		c := red.Console[i]
		if c.Level != w.level || c.Text != w.text || c.AtMS <= 0 || c.Location == "" {
			t.Errorf("console[%d] %+v: want %s %q with a location and a time", i, c, w.level, w.text)
		}
	}
	if loc := red.Console[1].Location; !strings.HasSuffix(loc, "/:16:11") {
		t.Errorf("console[1] location %q: want the page's line 16, column 11", loc)
	}
	if loc := red.Console[0].Location; !strings.Contains(loc, "token=••••••") {
		t.Errorf("console[0] location %q: want the token masked", loc)
	}

	// The uncaught error, the typed secret masked in its message and stack.
	if len(red.Errors) != 1 {
		t.Fatalf("page errors %+v, want the one uncaught error", red.Errors)
	}
	e := red.Errors[0]
	if e.Message != "kaboom ••••••" || !strings.Contains(e.Stack, "kaboom ••••••") || strings.Contains(e.Stack, "typed-secret-value") || e.AtMS <= 0 {
		t.Errorf("page error %+v: want the message and stack with the secret masked", e)
	}
	if step.Dropped.Any() {
		t.Errorf("dropped %+v, want nothing", step.Dropped)
	}

	// Handed over once: the next step starts empty.
	if len(next.Requests)+len(next.Console)+len(next.Errors) != 0 {
		t.Errorf("the next call handed over %+v again", next)
	}
}

func TestTrafficKeepsNoBodiesUnlessAsked(t *testing.T) {
	_, step, _, _ := clickSaveAndWait(t, false)
	for _, r := range step.Requests {
		if r.RequestBody != nil || r.ResponseBody != nil {
			t.Errorf("%s %s kept a body without Bodies: %+v %+v", r.Method, r.URL, r.RequestBody, r.ResponseBody)
		}
		if r.Method == "POST" && r.Size <= 0 {
			t.Errorf("POST size %d: sizes are kept without bodies", r.Size)
		}
	}
}

// floodPage fires more requests and console messages in one step than a step keeps, then
// fetches a body larger than a body keeps, and says done.
const floodPage = `<!doctype html><html lang="en"><head><title>Flood</title></head><body>
<p role="status" id="status"></p>
<script>
(async () => {
  await Promise.all(Array.from({ length: 120 }, (_, i) => fetch("/ping?i=" + i)));
  for (let i = 0; i < 130; i++) console.log("line " + i);
  await (await fetch("/big")).text();
  document.getElementById("status").textContent = "done";
})();
</script></body></html>`

func TestTrafficKeepsWithinTheStepsLimitsAndCountsTheRest(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, floodPage) })
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /ping", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "pong") })
	mux.HandleFunc("GET /big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, strings.Repeat("b", agent.MaxBodyBytes+1000))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Media: agent.Media{Bodies: true}})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	epoch := time.Now()
	if err := page.Goto(ctx, srv.URL); err != nil {
		t.Fatalf("goto: %v", err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for mustObserve(t, page).Notice != "done" {
		if time.Now().After(deadline) {
			t.Fatal("the page never said done")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Every request ended before the page said done, so what is kept and what dropped is
	// decided; reading the kept ones' details may outlast one call's wait on a slow machine.
	var tr agent.Traffic
	for end := time.Now().Add(30 * time.Second); len(tr.Requests) < agent.MaxStepRequests && time.Now().Before(end); {
		more := page.(agent.Watcher).Traffic(epoch, true)
		tr.Requests, tr.Console = append(tr.Requests, more.Requests...), append(tr.Console, more.Console...)
		tr.Dropped.Requests += more.Dropped.Requests
		tr.Dropped.Console += more.Dropped.Console
	}
	// The document, 120 pings and the big body: 122 requests, 100 kept.
	if len(tr.Requests) != agent.MaxStepRequests || tr.Dropped.Requests != 122-agent.MaxStepRequests {
		t.Errorf("kept %d requests and dropped %d, want %d and %d", len(tr.Requests), tr.Dropped.Requests, agent.MaxStepRequests, 122-agent.MaxStepRequests)
	}
	if len(tr.Console) != agent.MaxStepMessages || tr.Dropped.Console != 130-agent.MaxStepMessages {
		t.Errorf("kept %d console messages and dropped %d, want %d and %d", len(tr.Console), tr.Dropped.Console, agent.MaxStepMessages, 130-agent.MaxStepMessages)
	}
	if tr.Console[0].Text != "line 0" {
		t.Errorf("the first console message kept is %q, want the first written", tr.Console[0].Text)
	}
}

func TestTrafficCutsABodyAtItsLimit(t *testing.T) {
	w := &watch{bodies: true}
	data := []byte(strings.Repeat("é", agent.MaxBodyBytes)) // two bytes each: twice the limit
	b := w.body(data, "text/plain")
	if b == nil || len(b.Text) != agent.MaxBodyBytes || !b.Truncated || b.MimeType != "text/plain" {
		t.Fatalf("body of %d bytes kept as %d bytes, truncated %v", len(data), len(b.Text), b.Truncated)
	}
	if w.body([]byte{0xff, 0xfe, 0x00}, "application/octet-stream") != nil {
		t.Error("a binary body was kept")
	}
	for w.bodyBytes < agent.MaxAttemptBodyBytes {
		w.body(data, "text/plain")
	}
	if b := w.body([]byte("more"), "text/plain"); b != nil {
		t.Errorf("a body past the attempt's budget was kept: %+v", b)
	}
}

// unreadPage saves with a POST whose answer (not to be stored) it never reads, as many real
// pages do, says
// "Saved" once the answer came, and opens a stream that never ends.
const unreadPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unread</title></head>
<body><main><button type="button" id="save">Save</button><p role="status" id="status"></p></main>
<script>
document.getElementById("save").addEventListener("click", async () => {
  fetch("/stream");
  await fetch("/api/save", { method: "POST", body: "{}" });
  document.getElementById("status").textContent = "Saved";
});
</script></body></html>`

// TestTrafficRecordsAnswersThePageNeverReads: the browser never finishes a request whose
// body the page leaves unread, nor a stream; both are recorded as answered, size unknown, and
// the attempt's last look at the page waits for the slow save's answer, so its notice is seen.
func TestTrafficRecordsAnswersThePageNeverReads(t *testing.T) {
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, unreadPage) })
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("POST /api/save", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond) // the record changed; the answer is on its way
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store") // the browser then finishes it only once read
		_, _ = io.WriteString(w, `{"saved":true}`)
	})
	mux.HandleFunc("GET /stream", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: hello\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Media: agent.Media{Bodies: true}, Origins: []string{srv.URL}})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	epoch := time.Now()
	if err := page.Goto(ctx, srv.URL); err != nil {
		t.Fatalf("goto: %v", err)
	}
	w := page.(agent.Watcher)
	w.Traffic(epoch, false)
	mustAct(t, page, agent.ActClick, "button", "Save", "")
	page.(agent.Settler).Settle(ctx)
	if got := mustObserve(t, page).Notice; got != "Saved" {
		t.Errorf("after Settle the page says %q, want the notice its answer brought", got)
	}
	tr := w.Traffic(epoch, true)
	byURL := map[string]agent.Request{}
	for _, r := range tr.Requests {
		byURL[strings.TrimPrefix(r.URL, srv.URL)] = r
	}
	for _, path := range []string{"/api/save", "/stream"} {
		r, ok := byURL[path]
		if !ok {
			t.Errorf("%s is not recorded; recorded: %v", path, tr.Requests)
			continue
		}
		if r.Status != 200 || r.Size != -1 || r.ResponseBody != nil || r.Failure != "" {
			t.Errorf("%s recorded as status %d, size %d, body %v, failure %q; want 200, unknown size, no body, no failure", path, r.Status, r.Size, r.ResponseBody, r.Failure)
		}
	}
	if more := w.Traffic(epoch, true); len(more.Requests) != 0 {
		t.Errorf("recorded again: %v", more.Requests)
	}
}
