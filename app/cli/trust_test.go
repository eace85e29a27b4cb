package cli

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// recordingSite is a site on 127.0.0.1 that records every request it receives, as an
// attacker's would: a page that says Done, and an API.
type recordingSite struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string // method, URL and headers of each request
}

func startRecordingSite(t *testing.T) *recordingSite {
	t.Helper()
	s := &recordingSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, fmt.Sprintf("%s %s %v", r.Method, r.URL, r.Header))
		s.mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/api") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"ok": true}`)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Leak</title><main><h1>Done</h1><a href="next">Next</a></main>`)
	}))
	t.Cleanup(s.Close)
	return s
}

// received is everything the site received so far.
func (s *recordingSite) received() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.requests, "\n")
}

// leakTask reads a secret from the environment into its base URL, and so into every URL the
// attempt loads, and into a header of its HTTP condition.
const leakTask = `schema: observatory.task/v1
name: leak
intent: Open the page.
base_url: ${LEAK_SITE}/s/${FAKE_SECRET_TOKEN}/
start_url: ./
plan:
  - {description: Open the next page, action: navigate, value: next}
  - {description: Verify, action: verify}
success:
  - id: seen
    page: {url: /next$}
  - id: api
    http: {url: api, headers: {X-Key: "${FAKE_SECRET_TOKEN}"}, expr: status == 200 && body.ok}
`

// TestASecretFromTheEnvironmentIsAskedForAndNeverStored runs a task file that puts a secret
// from the environment in its base URL and a header. Without the user's leave the run is
// refused before any request, naming the flag; with --allow-env it runs, and the secret is
// in none of what is stored or printed: the run's output, the run file, the HAR, the report,
// and every file of the data folder (the database among them).
func TestASecretFromTheEnvironmentIsAskedForAndNeverStored(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	const secret = "FAKE-7d1e0c-secret-token"
	site := startRecordingSite(t)
	t.Setenv("LEAK_SITE", site.URL)
	t.Setenv("FAKE_SECRET_TOKEN", secret)
	dir := t.TempDir()
	task := filepath.Join(dir, "leak.yaml")
	if err := os.WriteFile(task, []byte(leakTask), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")

	code, out, errOut := run(t, "task", "check", task, "--allow-env", "LEAK_SITE")
	if code == 0 || !strings.Contains(errOut, "at base_url") || !strings.Contains(errOut, "--allow-env FAKE_SECRET_TOKEN") {
		t.Errorf("task check: exit %d\n%s\n%s\nwant the secret refused at base_url, naming the flag", code, out, errOut)
	}
	code, out, errOut = run(t, "run", task, "--allow-env", "LEAK_SITE", "--allow-env", "FAKE_*", "--data-dir", data)
	if code == 0 || !strings.Contains(errOut, "--allow-env FAKE_SECRET_TOKEN") || !strings.Contains(errOut, "looks secret") {
		t.Errorf("run without leave: exit %d\n%s\n%s\nwant a refusal naming --allow-env FAKE_SECRET_TOKEN", code, out, errOut)
	}
	if got := site.received(); got != "" {
		t.Fatalf("the site received requests from a refused run:\n%s", got)
	}

	export, report, har := filepath.Join(dir, "run.json"), filepath.Join(dir, "report.html"), filepath.Join(dir, "leak.har")
	code, out, errOut = run(t, "run", task, "--allow-env", "LEAK_SITE", "--allow-env", "FAKE_SECRET_TOKEN", "--bodies",
		"--export", export, "--data-dir", data)
	if code != 0 || !strings.Contains(out, "completed") {
		t.Fatalf("run with leave: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(site.received(), secret) {
		t.Fatalf("the allowed secret never reached the site; the test proves nothing:\n%s", site.received())
	}
	if !strings.Contains(errOut, `FAKE_SECRET_TOKEN (base_url, success[1].http.headers["X-Key"]): allowed`) {
		t.Errorf("run does not list the variables it reads:\n%s", errOut)
	}
	id := storedRunID(t, data)
	for _, args := range [][]string{{"export", id, "-o", report}, {"export", id, "--attempt", "leak", "--har", har}} {
		if code, _, errOut := run(t, append(args, "--data-dir", data)...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	check := func(what, text string) {
		if strings.Contains(text, secret) {
			i := strings.Index(text, secret)
			t.Errorf("%s holds the secret: …%s…", what, text[max(0, i-120):min(len(text), i+60)])
		}
	}
	check("the run's output", out+errOut)
	for _, f := range []string{export, report, har} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(filepath.Base(f), string(b))
	}
	err := filepath.WalkDir(data, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		check(path, string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
