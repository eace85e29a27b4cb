package app

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/runfile"
	"observatory/backend/taskfile"
)

// TestLabHostReachedByARemoteBrowser serves the booking lab on 127.0.0.2, an address other
// than the loopback labs use by default (Linux routes all of 127/8 to it), and runs an
// attempt in a Playwright browser server: the browser reaches the lab there and the attempt
// completes, every page it saw on that address.
func TestLabHostReachedByARemoteBrowser(t *testing.T) {
	srv := browsertest.Server(t)
	exe, err := browser.ChromiumPath()
	if err != nil {
		t.Fatal(err)
	}
	src, err := LabTask("booking")
	if err != nil {
		t.Fatal(err)
	}
	prep, err := Prepare(RunRequest{Task: src, Attempts: []string{"saves-normally"}, LabHost: "127.0.0.2",
		Remote: []RemoteBrowser{{URL: srv.URL, Executable: exe}}})
	if err != nil {
		t.Fatal(err)
	}
	if prep.LabHost != "127.0.0.2" {
		t.Errorf("the run advertises the lab on %q, want 127.0.0.2", prep.LabHost)
	}
	run, err := prep.Runner.Run(context.Background(), prep.ID, prep.Options)
	if err != nil {
		t.Fatal(err)
	}
	if run.LabHost != "127.0.0.2" {
		t.Errorf("the run records its lab on %q, want 127.0.0.2", run.LabHost)
	}
	var file bytes.Buffer
	if err := runfile.Encode(&file, run); err != nil {
		t.Fatal(err)
	}
	decoded, err := runfile.Decode(bytes.NewReader(file.Bytes()))
	if err != nil || decoded.Run.LabHost != "127.0.0.2" {
		t.Errorf("the run file keeps the lab host as %q (%v), want 127.0.0.2", decoded.Run.LabHost, err)
	}
	a := run.Attempts[0]
	if a.Terminal != agent.Completed {
		t.Fatalf("%s ended %s: %s", a.Slug, a.Terminal, a.Reason)
	}
	for _, s := range a.Steps {
		if !strings.HasPrefix(s.After.URL, "http://127.0.0.2:") {
			t.Errorf("step %d saw %s, want the lab on 127.0.0.2", s.Index+1, s.After.URL)
		}
	}
}

// TestLabHostRefusals: a wildcard address is no place to send a browser, and a task on a site
// of its own has no lab to move.
func TestLabHostRefusals(t *testing.T) {
	src, err := LabTask("booking")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Prepare(RunRequest{Task: src, LabHost: "0.0.0.0"}); err == nil || !strings.Contains(err.Error(), "wildcard") {
		t.Errorf("--lab-host 0.0.0.0 gave %v, want the wildcard refused", err)
	}
	if _, err := Prepare(RunRequest{Task: src, LabHost: "127.0.0.2:80"}); err == nil || !strings.Contains(err.Error(), "without a port") {
		t.Errorf("--lab-host with a port gave %v, want it refused", err)
	}
	own, err := ParseTaskFile("own.yaml", []byte(`schema: observatory.task/v1
name: own-site
intent: Look at the page.
start_url: http://127.0.0.1:9/
success:
  - id: seen
    label: The page shows the title
    page:
      visible: {role: heading, name: Welcome}
`), taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if prep, err := Prepare(RunRequest{Task: own, LabHost: "127.0.0.2"}); err != nil || prep.LabHost != "" {
		t.Errorf("--lab-host on a task without a lab gave %v, advertised %q; want it taken for the origins guards only", err, prep.LabHost)
	}
	if _, err := Prepare(RunRequest{Task: own, LabHost: "0.0.0.0"}); err == nil {
		t.Error("a wildcard --lab-host was taken for the origins guards")
	}
	if prep, err := Prepare(RunRequest{Task: own}); err != nil || prep.LabHost != "" {
		t.Errorf("a task without a lab: %v, advertised %q; want no lab host", err, prep.LabHost)
	}
}
