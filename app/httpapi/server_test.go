package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"observatory/app"
	"observatory/app/apierror"
	"observatory/backend/store"
)

// fixture is a real handler on a fresh data folder, and a client that has opened the printed
// address (so it holds the session cookie).
type fixture struct {
	srv     *httptest.Server
	h       *Handler
	client  *http.Client
	token   string
	store   *store.Store
	dataDir string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	services := app.New(app.Options{Store: st, DataDir: dir, Transport: "http"})
	token := NewToken()
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Observatory</title>")}}
	h := New(services, assets, dir, token)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	f := &fixture{srv: srv, h: h, client: &http.Client{Jar: jar}, token: token, store: st, dataDir: dir}
	resp, err := f.client.Get(srv.URL + "/?token=" + token)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("opening the printed address: %v %v", resp, err)
	}
	resp.Body.Close()
	return f
}

// call posts a service call with the session cookie and decodes the reply.
func (f *fixture) call(t *testing.T, path, contentType, body string) (int, map[string]any) {
	t.Helper()
	resp, err := f.client.Post(f.srv.URL+path, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// errorOf is the error a reply carries, {"kind", "message", "path"}, or zero.
func errorOf(out map[string]any) apierror.Error {
	var e struct {
		Error apierror.Error `json:"error"`
	}
	b, _ := json.Marshal(out)
	_ = json.Unmarshal(b, &e)
	return e.Error
}

func TestGuardAdmitsOnlyThisUser(t *testing.T) {
	f := newFixture(t)
	ready := f.srv.URL + "/api/Session/Ready"
	tests := []struct {
		name   string
		req    func() *http.Request
		client *http.Client
		want   int
	}{
		{"with the session cookie", func() *http.Request { return jsonPost(ready, "[]") }, f.client, http.StatusOK},
		{"no cookie", func() *http.Request { return jsonPost(ready, "[]") }, http.DefaultClient, http.StatusForbidden},
		{"a wrong token", func() *http.Request { return get(f.srv.URL + "/?token=guess") }, http.DefaultClient, http.StatusForbidden},
		{"media without the cookie", func() *http.Request { return get(f.srv.URL + "/media/x/y.jpg") }, http.DefaultClient, http.StatusForbidden},
		{"a rebound DNS name", func() *http.Request {
			r := jsonPost(ready, "[]")
			r.Host = "attacker.example:80"
			return r
		}, f.client, http.StatusMisdirectedRequest},
	}
	for _, tt := range tests {
		resp, err := tt.client.Do(tt.req())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
	}
}

func TestTheTokenAddressSetsAStrictCookieAndDropsTheToken(t *testing.T) {
	f := newFixture(t)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(f.srv.URL + "/?token=" + f.token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cookies := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || len(cookies) != 1 {
		t.Fatalf("status %d to %q with cookies %v; want a redirect to / setting the session", resp.StatusCode, resp.Header.Get("Location"), cookies)
	}
	if c := cookies[0]; !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
		t.Errorf("cookie %+v: want HttpOnly and SameSite=Strict", c)
	}
}

func TestCalls(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, path, contentType, body string
		want                          int
		has                           string
	}{
		{"a call", "/api/Tasks/List", "application/json", "[]", http.StatusOK, `"name":"booking"`},
		{"not JSON, so no cross-site form can send it", "/api/Tasks/List", "text/plain", "[]", http.StatusUnsupportedMediaType, "application/json"},
		{"unknown service", "/api/Nope/Tasks", "application/json", "[]", http.StatusNotFound, `no service "Nope"`},
		{"path-taking transfers are not exposed", "/api/Transfer/ExportFile", "application/json", `["x","/tmp/x"]`, http.StatusNotFound, `no service "Transfer"`},
		{"unknown method", "/api/Runs/Nope", "application/json", "[]", http.StatusNotFound, `no method "Nope"`},
		{"wrong argument count", "/api/History/Get", "application/json", "[]", http.StatusUnprocessableEntity, "takes 1 arguments, got 0"},
		{"arguments not an array", "/api/History/Get", "application/json", `{"id":1}`, http.StatusUnprocessableEntity, "must be a JSON array"},
		{"a run that does not exist", "/api/History/Get", "application/json", `["nope"]`, http.StatusNotFound, "nope"},
		{"a run refused before it starts", "/api/Runs/Start", "application/json", `[{"task":"lab:booking","attempts":[],"config":{"poll_ms":0}}]`,
			http.StatusUnprocessableEntity, "poll 0 ms"},
	}
	for _, tt := range tests {
		status, out := f.call(t, tt.path, tt.contentType, tt.body)
		text := errorOf(out).Message
		if text == "" {
			b, _ := json.Marshal(out["result"])
			text = string(b)
		}
		if status != tt.want || !strings.Contains(text, tt.has) {
			t.Errorf("%s: %d %s; want %d containing %q", tt.name, status, text, tt.want, tt.has)
		}
	}
	if runs, _ := f.store.List(); len(runs) != 0 {
		t.Errorf("a refused run was recorded: %+v", runs)
	}
}

func TestUploads(t *testing.T) {
	f := newFixture(t)
	status, out := f.call(t, "/upload/run.json", "text/plain", "{}")
	if status != http.StatusUnsupportedMediaType {
		t.Errorf("a text/plain upload: %d %v, want 415", status, out)
	}
	status, out = f.call(t, "/upload/run.json", "application/octet-stream", `{"schema": "observatory.run/v9"}`)
	if e := errorOf(out); status != http.StatusUnprocessableEntity || e.Kind != apierror.Invalid || !strings.Contains(e.Message, "unknown schema version") {
		t.Errorf("a refused run file: %d %v, want 422 naming the problem", status, out)
	}
	if runs, _ := f.store.List(); len(runs) != 0 {
		t.Errorf("a refused upload was stored: %+v", runs)
	}
	resp, err := f.client.Get(f.srv.URL + "/bundle/nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("the bundle of an unknown run: %d, want 404", resp.StatusCode)
	}
}

// TestMediaStaysInsideTheMediaFolder serves a run's media, a DOM snapshot holding a script
// as text that never runs, and nothing outside the media folder.
func TestMediaStaysInsideTheMediaFolder(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.dataDir, "secret.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(app.MediaRoot(f.dataDir), "run1")
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runDir, "a.jpg"), []byte("jpeg"), 0o644); err != nil {
		t.Fatal(err)
	}
	const snapshot = "<!DOCTYPE html><html><body><script>top.pwned = 1</script></body></html>"
	if err := os.WriteFile(filepath.Join(runDir, "a.dom.txt"), []byte(snapshot), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"/media/run1/a.jpg": "jpeg", "/media/run1/a.dom.txt": snapshot, "/media/../secret.txt": "", "/media/run1/../../secret.txt": "", "/media/%2e%2e/secret.txt": ""} {
		resp, err := f.client.Get(f.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		resp.Body.Close()
		if strings.Contains(b.String(), "secret") || (want != "" && b.String() != want) {
			t.Errorf("%s gave %d %q", path, resp.StatusCode, b.String())
		}
		if want != "" && (resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "sandbox")) {
			t.Errorf("%s is served without nosniff and a sandbox policy: %v", path, resp.Header)
		}
		if strings.HasSuffix(path, ".dom.txt") && resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("a DOM snapshot is served as %q, want text/plain", resp.Header.Get("Content-Type"))
		}
	}
}

func TestEventsReachTheWebSocket(t *testing.T) {
	f := newFixture(t)
	u := "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/api/events"
	header := http.Header{"Origin": {f.srv.URL}}
	for _, c := range f.client.Jar.Cookies(mustURL(t, f.srv.URL)) {
		header.Add("Cookie", c.String())
	}
	conn, _, err := websocket.DefaultDialer.Dial(u, header)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, _, err := websocket.DefaultDialer.Dial(u, http.Header{"Origin": {"http://attacker.example"}}); err == nil {
		t.Error("a WebSocket from another origin (and without the cookie) was accepted")
	}
	// The hub has the client once the upgrade returned; emit until it arrives.
	deadline := time.Now().Add(5 * time.Second)
	_ = conn.SetReadDeadline(deadline)
	go func() {
		for time.Now().Before(deadline) {
			f.h.hub.Emit("run", map[string]string{"kind": "run-started"})
			time.Sleep(20 * time.Millisecond)
		}
	}()
	var m message
	if err := conn.ReadJSON(&m); err != nil || m.Name != "run" {
		t.Fatalf("read %+v, %v; want the run event", m, err)
	}
}

func TestAddr(t *testing.T) {
	for in, want := range map[string]string{":0": "127.0.0.1:0", "127.0.0.1:8080": "127.0.0.1:8080", "[::1]:0": "[::1]:0", "localhost:0": "localhost:0"} {
		if got, err := Addr(in); err != nil || got != want {
			t.Errorf("Addr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"0.0.0.0:8080", "[::]:0", "192.168.1.2:80", "example.com:80", "nonsense"} {
		if _, err := Addr(in); err == nil {
			t.Errorf("Addr(%q) was accepted; serve must listen on loopback only", in)
		}
	}
}

func jsonPost(url, body string) *http.Request {
	r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

func get(url string) *http.Request {
	r, _ := http.NewRequest(http.MethodGet, url, nil)
	return r
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// uploadBookingRun imports runfile's v1 booking run through an upload, as a browser would,
// and returns the id of the run it was stored as.
func (f *fixture) uploadBookingRun(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "backend", "runfile", "testdata", "v1-booking.json"))
	if err != nil {
		t.Fatal(err)
	}
	status, out := f.call(t, "/upload/v1-booking.json", "application/octet-stream", string(data))
	if status != http.StatusOK {
		t.Fatalf("upload: %d %v", status, out)
	}
	return out["result"].(map[string]any)["run_id"].(string)
}

// TestErrorsCarryTheirKindAndPath checks that a refused input reaches the caller typed, with
// where in the input the problem lies, as the desktop's window receives it too.
func TestErrorsCarryTheirKindAndPath(t *testing.T) {
	f := newFixture(t)
	status, out := f.call(t, "/upload/run.json", "application/octet-stream", `{"schema": "observatory.run/v2", "attempts": "many"}`)
	e := errorOf(out)
	if status != http.StatusUnprocessableEntity || e.Kind != apierror.Invalid || e.Path == "" || !strings.Contains(e.Message, e.Path) {
		t.Errorf("a run file with a bad field: %d %+v, want 422, kind invalid, and the field's path", status, e)
	}
	status, out = f.call(t, "/api/History/Get", "application/json", `["nope"]`)
	if e := errorOf(out); status != http.StatusNotFound || e.Kind != apierror.NotFound || e.Path != "" {
		t.Errorf("an unknown run: %d %+v, want 404, kind not_found, no path", status, e)
	}
}
