//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"observatory/app"
	"observatory/backend/bundle"
	"observatory/backend/store"
	"observatory/backend/store/storetest"
)

// servingAt is the address `serve` prints, token and all.
var servingAt = regexp.MustCompile(`serving Observatory on (http://\S+) `)

// stallUpload starts an upload to the server at address (as printed, with its token) that
// sends its first bytes and then nothing more, and returns once the server is receiving it
// into the data folder's tmp.
func stallUpload(t *testing.T, address, dir string) {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Jar: jar, Timeout: time.Minute}
	resp, err := client.Get(address) // sets the session cookie
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	base := strings.SplitN(address, "/?", 2)[0]
	body, feed := io.Pipe()
	t.Cleanup(func() { feed.CloseWithError(io.ErrClosedPipe) })
	req, err := http.NewRequest(http.MethodPost, base+"/upload/stalled.zip", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	go func() {
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	go feed.Write(bytes.Repeat([]byte("PK"), 32<<10))
	for deadline := time.Now().Add(30 * time.Second); len(glob(t, app.TempRoot(dir), "upload-")) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server never began receiving the upload")
		}
	}
}

// TestSignalsStopServe runs `observatory serve` as a process of its own with an upload
// stalled half-way. SIGTERM stops it within the grace, exit 0: it lets the upload run on a
// while, then closes its connection, and the upload removes its temporary file before the
// process exits. A second Ctrl+C quits at once with 130, leaving the upload's file to the
// next start-up's sweep. The store passes its integrity check either way.
func TestSignalsStopServe(t *testing.T) {
	serve := func(t *testing.T) (*process, string) {
		dir := t.TempDir()
		p := start(t, "serve", "--addr", "127.0.0.1:0", "--data-dir", dir)
		p.waitToSay(t, "Ctrl+C stops", 30*time.Second)
		m := servingAt.FindStringSubmatch(p.said())
		if m == nil {
			t.Fatalf("serve printed no address:\n%s", p.said())
		}
		stallUpload(t, m[1], dir)
		return p, dir
	}
	t.Run("SIGTERM", func(t *testing.T) {
		p, dir := serve(t)
		took := p.signal(t, syscall.SIGTERM, stopGrace+5*time.Second)
		t.Logf("exited %s after SIGTERM", took)
		if took >= stopGrace || p.exitCode() != 0 {
			t.Errorf("exit %d after %s, want 0 well within %s:\n%s", p.exitCode(), took, stopGrace, p.said())
		}
		if left := glob(t, app.TempRoot(dir), ""); len(left) != 0 {
			t.Errorf("the stopped server left %q in the data folder's tmp", left)
		}
		storetest.Intact(t, filepath.Join(dir, store.FileName))
	})
	t.Run("second Ctrl+C", func(t *testing.T) {
		p, dir := serve(t)
		if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		p.waitToSay(t, "Ctrl+C again quits at once", 5*time.Second)
		took := p.signal(t, syscall.SIGINT, 2*time.Second)
		t.Logf("exited %s after the second SIGINT", took)
		if p.exitCode() != 130 {
			t.Errorf("exit %d, want 130:\n%s", p.exitCode(), p.said())
		}
		if code, _, stderr := run(t, "runs", "--data-dir", dir); code != 0 {
			t.Fatalf("runs: exit %d: %s", code, stderr)
		}
		if left := glob(t, app.TempRoot(dir), ""); len(left) != 0 {
			t.Errorf("after the next start-up's sweep the data folder's tmp holds %q", left)
		}
		storetest.Intact(t, filepath.Join(dir, store.FileName))
	})
}

// bigBundleFile writes a bundle whose video is 240 MiB (under the 256 MiB an entry may hold),
// so that extracting it takes long enough to be interrupted, and returns its path.
func bigBundleFile(t *testing.T) string {
	t.Helper()
	data := bundleBytes(t, bookingRun(t, "saves-normally.webm"), map[string][]byte{"saves-normally.webm": make([]byte, 240<<20)})
	path := filepath.Join(t.TempDir(), "big.zip")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// waitMidExtract waits until the import in p is writing the video into its temporary folder.
func waitMidExtract(t *testing.T, p *process, dir string) {
	t.Helper()
	media := app.MediaRoot(dir)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		for _, d := range glob(t, media, bundle.ImportPrefix) {
			if info, err := os.Stat(filepath.Join(media, d, "saves-normally.webm")); err == nil && info.Size() > 0 {
				return
			}
		}
		select {
		case <-p.exited:
			t.Fatalf("the import ended (%v) before it was seen extracting:\n%s", p.err, p.said())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the import was never seen extracting:\n%s", p.said())
		}
	}
}

// noRuns fails t unless the history in dir is empty and its media folder holds nothing, after
// a start-up (which sweeps what a killed process left).
func noRuns(t *testing.T, dir string) {
	t.Helper()
	code, out, stderr := run(t, "runs", "--json", "--data-dir", dir)
	var runs []json.RawMessage
	if err := json.Unmarshal([]byte(out), &runs); code != 0 || err != nil || len(runs) != 0 {
		t.Errorf("runs: exit %d, %d runs (%v): %s", code, len(runs), err, stderr)
	}
	if left := glob(t, app.MediaRoot(dir), ""); len(left) != 0 {
		t.Errorf("the media folder holds %q", left)
	}
}

// TestSignalsStopAnImportMidExtract runs `observatory import` of a 240 MiB bundle as a process
// of its own and signals it while it extracts the video. SIGTERM stops the extraction within
// the grace: exit 1 saying the import was stopped, no temporary folder, no run, no media. Two
// Ctrl+C in a row quit at once (130, or 1 when the first had already stopped it), and after
// the next start-up nothing is left either. The store passes its integrity check.
func TestSignalsStopAnImportMidExtract(t *testing.T) {
	path := bigBundleFile(t)
	t.Run("SIGTERM", func(t *testing.T) {
		dir := t.TempDir()
		p := start(t, "import", path, "--data-dir", dir)
		waitMidExtract(t, p, dir)
		took := p.signal(t, syscall.SIGTERM, stopGrace+5*time.Second)
		t.Logf("exited %s after SIGTERM", took)
		if took >= stopGrace || p.exitCode() != 1 || !strings.Contains(p.said(), "the import was stopped; nothing of it was kept") {
			t.Errorf("exit %d after %s, want 1 saying the import was stopped, well within %s:\n%s", p.exitCode(), took, stopGrace, p.said())
		}
		if left := glob(t, app.MediaRoot(dir), ""); len(left) != 0 {
			t.Errorf("before any sweep the stopped import left %q in the media folder", left)
		}
		noRuns(t, dir)
		storetest.Intact(t, filepath.Join(dir, store.FileName))
	})
	t.Run("second Ctrl+C", func(t *testing.T) {
		dir := t.TempDir()
		p := start(t, "import", path, "--data-dir", dir)
		waitMidExtract(t, p, dir)
		if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		took := p.signal(t, syscall.SIGINT, 2*time.Second)
		t.Logf("exited %d %s after the second SIGINT", p.exitCode(), took)
		if code := p.exitCode(); code != 130 && code != 1 {
			t.Errorf("exit %d, want 130 (or 1, stopped by the first):\n%s", code, p.said())
		}
		noRuns(t, dir)
		storetest.Intact(t, filepath.Join(dir, store.FileName))
	})
}
