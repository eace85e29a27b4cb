package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"
)

// TestARerunOfAnImportedRunWaitsForTheUsersYes records a run whose step loads
// /admin/delete-all on a local site that counts such requests, and imports its run file into
// another data folder, as a stranger's file arrives. A rerun of the imported run lists the step
// and its origin and runs nothing without a yes (no terminal, no --yes): the site sees no
// request and no run is recorded; on a terminal it asks, and a no runs nothing either. With
// --yes the step runs.
func TestARerunOfAnImportedRunWaitsForTheUsersYes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	var deletes atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/admin/delete-all" {
			deletes.Add(1)
			fmt.Fprint(w, "<!doctype html><title>Admin</title><h1>Everything deleted</h1>")
			return
		}
		fmt.Fprint(w, "<!doctype html><title>Home</title><h1>Home</h1>")
	}))
	defer site.Close()
	dir := t.TempDir()
	task := filepath.Join(dir, "wipe.yaml")
	spec := `schema: observatory.task/v1
name: wipe
intent: Look at the admin page.
base_url: ` + site.URL + `
start_url: /
plan:
  - description: Open the admin page
    action: navigate
    value: ` + site.URL + `/admin/delete-all
  - description: Verify
    action: verify
success:
  - id: shown
    label: The page says so
    page:
      visible: {role: heading, name: Everything deleted}
`
	if err := os.WriteFile(task, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	mine, theirs := filepath.Join(dir, "mine"), filepath.Join(dir, "theirs")
	runFile := filepath.Join(dir, "wipe.run.json")
	if code, out, errOut := run(t, "run", task, "--no-video", "--export", runFile, "--data-dir", mine); code != 0 || deletes.Load() == 0 {
		t.Fatalf("run: exit %d, %d deletes\n%s\n%s", code, deletes.Load(), out, errOut)
	}
	if code, _, errOut := run(t, "import", runFile, "--data-dir", theirs); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	id := onlyRun(t, theirs)

	deletes.Store(0)
	code, out, errOut := run(t, "rerun", id, "--task", task, "--no-video", "--data-dir", theirs)
	if code == 0 || deletes.Load() != 0 {
		t.Fatalf("a rerun of an imported run without a yes: exit %d, %d deletes\n%s\n%s", code, deletes.Load(), out, errOut)
	}
	for _, want := range []string{"step 1: Open the admin page on " + site.URL, "loads " + site.URL + "/admin/delete-all", "--yes"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errOut)
		}
	}
	onlyRun(t, theirs) // nothing recorded

	// On a terminal the rerun asks; a "y" typed before the question answers nothing, and
	// the "n" typed after it refuses.
	ptmx, tty := openTerminal(t)
	if _, err := ptmx.Write([]byte("y\n")); err != nil {
		t.Fatal(err)
	}
	asked := &lockedBuffer{}
	go func() {
		for deadline := time.Now().Add(20 * time.Second); !strings.Contains(asked.String(), "[y/n]"); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				return // the check below says what was printed instead
			}
		}
		ptmx.Write([]byte("n\n"))
	}()
	code = Execute(context.Background(), Env{Stdin: tty, Stdout: io.Discard, Stderr: asked, Assets: fstest.MapFS{}},
		[]string{"rerun", id, "--task", task, "--no-video", "--data-dir", theirs})
	if code == 0 || deletes.Load() != 0 || !strings.Contains(asked.String(), "Run these 2 steps of a run imported from wipe.run.json? [y/n]") {
		t.Fatalf("a rerun the user said no to: exit %d, %d deletes\n%s", code, deletes.Load(), asked.String())
	}
	onlyRun(t, theirs)

	code, out, errOut = run(t, "rerun", id, "--task", task, "--no-video", "--yes", "--data-dir", theirs)
	if code != 0 || deletes.Load() != 1 || !strings.Contains(out, "completed") {
		t.Errorf("a rerun with --yes: exit %d, %d deletes\n%s\n%s", code, deletes.Load(), out, errOut)
	}
}

// TestARerunOfAnImportedRunIsJudgedByTheHarness records the outbox's send with the harness
// off (sent without a question), imports the run file elsewhere and reruns it with --yes:
// the listing marks the send irreversible, and the harness holds it for the approval nobody
// at a terminal gives, as in a live run.
func TestARerunOfAnImportedRunIsJudgedByTheHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	dir := t.TempDir()
	runFile := filepath.Join(dir, "sent.run.json")
	mine, theirs := filepath.Join(dir, "mine"), filepath.Join(dir, "theirs")
	code, out, errOut := run(t, "run", "--lab", "outbox", "--attempt", "approval-denied", "--harness", "off", "--no-video",
		"--export", runFile, "--data-dir", mine)
	if code != 0 || !strings.Contains(out, "approval-denied: completed") {
		t.Fatalf("run with the harness off: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := run(t, "import", runFile, "--data-dir", theirs); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	code, out, errOut = run(t, "rerun", onlyRun(t, theirs), "--yes", "--no-video", "--data-dir", theirs)
	if code != 0 || !strings.Contains(out, "approval-denied: rejected") || !strings.Contains(out, "approval held: nobody to ask (no terminal, no window open)") {
		t.Errorf("the rerun: exit %d, want the send held for approval\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "[irreversible]") {
		t.Errorf("the listing marks no step irreversible:\n%s", errOut)
	}
}
