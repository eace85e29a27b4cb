//go:build linux

package cli

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

// uploadPage is a form that sends the file its input holds, as many sites' do: a wrapping
// label, and a button that posts the input's file (or nothing) to /upload.
const uploadPage = `<!doctype html><title>Reports</title>
<main><h1>Send the report</h1>
<label>Report <input type="file" id="report"></label>
<button type="button" id="send">Send report</button><p role="status" id="sent"></p></main>
<script>
document.getElementById("send").addEventListener("click", async () => {
  const f = document.getElementById("report").files[0];
  const res = await fetch("/upload", { method: "POST", headers: { "X-Name": f ? f.name : "" }, body: f || "" });
  document.getElementById("sent").textContent = "Received " + await res.text();
});
</script>`

// uploadSite serves uploadPage and keeps what each send delivered: "name: content", or
// "nothing" for a send with no file.
type uploadSite struct {
	mu       sync.Mutex
	received []string
}

func (s *uploadSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/upload" {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, uploadPage)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	got := "nothing"
	if name := r.Header.Get("X-Name"); name != "" {
		got = name + ": " + string(body)
	}
	s.mu.Lock()
	s.received = append(s.received, got)
	s.mu.Unlock()
	_, _ = io.WriteString(w, got)
}

func (s *uploadSite) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.received)
}

// approveAll is the user at the terminal, approving each question asked until the test ends.
func approveAll(t *testing.T, ptmx *os.File, said func() string) {
	finished := make(chan struct{})
	t.Cleanup(func() { close(finished) })
	go func() {
		for n := 0; ; n++ {
			for strings.Count(said(), "Approve? [y/n]") <= n {
				select {
				case <-finished:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
			if _, err := ptmx.Write([]byte("y\n")); err != nil {
				return
			}
		}
	}()
}

// TestMCPFileUploadOnlyFromTheUploadsFolder: browser_file_upload sets the page's file input
// to a file inside the task's uploads folder, which the page then sends, and refuses a path
// outside it (absolute, with `..`, or through a symlink in the folder that leads out) with
// the reason before the user is asked to approve it (an upload always waits for approval):
// nothing reaches the site, and the agent goes on in the same attempt. Each call is a
// recorded step; only the accepted one asks the user and records a transfer.
func TestMCPFileUploadOnlyFromTheUploadsFolder(t *testing.T) {
	browsertest.Ready(t)
	site := &uploadSite{}
	srv := httptest.NewServer(site)
	defer srv.Close()
	dir := t.TempDir()
	uploads, home := filepath.Join(dir, "uploads"), filepath.Join(dir, "home")
	for path, text := range map[string]string{
		filepath.Join(uploads, "report.txt"): "the quarterly report",
		filepath.Join(home, "secret.txt"):    "the user's secret",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(home, filepath.Join(uploads, "home")); err != nil {
		t.Fatal(err)
	}
	task := filepath.Join(dir, "task.yaml")
	if err := os.WriteFile(task, []byte(fmt.Sprintf(`schema: observatory.task/v1
name: send-report
intent: Send the quarterly report.
start_url: %s/
uploads: uploads
success:
  - id: sent
    page: {text: "Received report.txt"}
`, srv.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	ptmx, tty := openTerminal(t)
	cs, stop, _, said := mcpOverHTTP(t, tty, task, "--data-dir", dataDir, "--no-video", "--approve", "ask")
	approveAll(t, ptmx, said)
	refusals := map[string]string{
		filepath.Join(home, "secret.txt"): "is an absolute path",
		"../home/secret.txt":              "`..` leaves the uploads folder",
		"home/secret.txt":                 "a symlink leads to " + filepath.Join(home, "secret.txt") + ", outside the uploads folder",
	}
	for _, p := range slices.Sorted(maps.Keys(refusals)) {
		text, res := callTool(t, cs, "browser_file_upload", map[string]any{"paths": []string{p}})
		if !res.IsError || !strings.Contains(text, "refused before acting") || !strings.Contains(text, refusals[p]) {
			t.Errorf("uploading %s, outside the uploads folder:\n%s", p, text)
		}
	}
	if got := site.got(); len(got) != 0 {
		t.Errorf("after the refused uploads the site received %q, want nothing", got)
	}
	if n := strings.Count(said(), "Approve? [y/n]"); n != 0 {
		t.Errorf("the user was asked %d times to approve uploads that could never run:\n%s", n, said())
	}

	page, res := callTool(t, cs, "browser_file_upload", map[string]any{"paths": []string{"report.txt"}})
	if res.IsError {
		t.Fatalf("uploading report.txt from the uploads folder: %s", page)
	}
	if text, res := callTool(t, cs, "browser_click", map[string]any{"element": "Send report", "target": refOf(t, page, "button", "Send report")}); res.IsError {
		t.Fatalf("sending the report: %s", text)
	}
	callTool(t, cs, "browser_wait_for", map[string]any{"text": "Received report.txt", "time": 5})
	if got := site.got(); !slices.Equal(got, []string{"report.txt: the quarterly report"}) {
		t.Errorf("the site received %q, want the report", got)
	}
	if got := claimDone(t, cs, "Sent."); !got.Gate.Done {
		t.Errorf("task_done after sending the report: %+v", got)
	}
	stderr := stop()

	status, attempts := storedRun(t, dataDir)
	if status != agent.RunFinished || len(attempts) != 1 {
		t.Fatalf("run %s with %d attempts, want finished with one attempt:\n%s", status, len(attempts), stderr)
	}
	sent := attempts[0]
	if sent.Terminal != agent.Completed || len(sent.Steps) < 4 {
		t.Fatalf("%s: %s with steps %+v, want completed after three refused uploads and one sent", sent.Slug, sent.Terminal, sent.Steps)
	}
	for _, st := range sent.Steps[:3] {
		if st.Action.Kind != agent.ActUpload || st.Decision.Admission != agent.Hold || !strings.Contains(st.Error, "refused before acting") ||
			len(st.Approvals) != 0 || len(st.Transfers) != 0 {
			t.Errorf("step %d: a refused upload recorded as %+v", st.Index+1, st)
		}
	}
	up := sent.Steps[3]
	if up.Action.Kind != agent.ActUpload || len(up.Approvals) != 1 || up.Approvals[0].Answer != agent.AnswerApprove {
		t.Fatalf("step 4: the upload of report.txt recorded as %+v, want approved", up)
	}
	if tr := up.Transfers; len(tr) != 1 || tr[0].Saved != "report.txt" || tr[0].Bytes != int64(len("the quarterly report")) {
		t.Errorf("the upload of report.txt recorded transfers %+v", tr)
	}
}
