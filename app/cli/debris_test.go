package cli

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/bundle"
	"observatory/backend/scratch"
)

// debrisDirEnv tells the re-executed test binary to act as the process killed mid-work.
const debrisDirEnv = "OBSERVATORY_DEBRIS_HELPER_DIR"

// stalledReaderAt reads from r but, once asked for bytes from stall to end, says so and
// blocks for good: the moment an extraction is in the middle of an entry (the archive's
// directory, read first, lies past the entries).
type stalledReaderAt struct {
	r          *bytes.Reader
	stall, end int64
	stalls     chan<- string
}

func (s *stalledReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= s.stall && off < s.end {
		s.stalls <- "extracting"
		select {}
	}
	return s.r.ReadAt(p, off)
}

// stalledUpload delivers its first chunk and then blocks for good: a browser's upload cut
// short.
type stalledUpload struct {
	sent   bool
	stalls chan<- string
}

func (u *stalledUpload) Read(p []byte) (int, error) {
	if u.sent {
		u.stalls <- "uploading"
		select {}
	}
	u.sent = true
	return copy(p, bytes.Repeat([]byte("PK"), len(p)/2)), nil
}

// bigBundle is a bundle of a booking run whose video is 4 MiB, and the archive offset of
// the video's data.
func bigBundle(t *testing.T) ([]byte, int64) {
	t.Helper()
	data := bundleBytes(t, bookingRun(t, "saves-normally.webm"), map[string][]byte{"saves-normally.webm": make([]byte, 4<<20)})
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == bundle.MediaPrefix+"saves-normally.webm" {
			off, err := f.DataOffset()
			if err != nil {
				t.Fatal(err)
			}
			return data, off
		}
	}
	t.Fatal("the bundle has no video")
	return nil, 0
}

// nopSaver saves nothing; the helper never gets that far.
type nopSaver struct{}

func (nopSaver) SaveImported(agent.Run) error { return nil }

// TestHelperKilledMidImport is not a test: run as a child of TestStartUpSweepsWhatAKilledImportLeft,
// it extracts a bundle and receives an upload into its data folder, says when both are under
// way, and waits to be killed.
func TestHelperKilledMidImport(t *testing.T) {
	dir := os.Getenv(debrisDirEnv)
	if dir == "" {
		t.Skip("helper process for TestStartUpSweepsWhatAKilledImportLeft")
	}
	data, video := bigBundle(t)
	stalls := make(chan string)
	r := &stalledReaderAt{r: bytes.NewReader(data), stall: video + 1<<20, end: video + 3<<20, stalls: stalls}
	go func() {
		_, err := bundle.Import(context.Background(), app.Resolve, nopSaver{}, app.MediaRoot(dir), "big.zip", r, int64(len(data)))
		fmt.Fprintln(os.Stderr, "the import ended before it was killed:", err)
		os.Exit(2)
	}()
	go app.NewTransfer(nil, dir).ImportUpload(context.Background(), "upload.zip", &stalledUpload{stalls: stalls})
	for range 2 {
		fmt.Println(<-stalls)
	}
	select {}
}

// glob lists the names in dir that start with prefix, sorted.
func glob(t *testing.T, dir, prefix string) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(dir, prefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range matches {
		matches[i] = filepath.Base(m)
	}
	slices.Sort(matches)
	return matches
}

func TestStartUpSweepsWhatAKilledImportLeft(t *testing.T) {
	dir := t.TempDir()
	media, tmp := app.MediaRoot(dir), app.TempRoot(dir)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperKilledMidImport$")
	cmd.Env = append(os.Environ(), debrisDirEnv+"="+dir, "GORACE=atexit_sleep_ms=0")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan []string)
	go func() {
		var seen []string
		for lines := bufio.NewScanner(out); len(seen) < 2 && lines.Scan(); {
			seen = append(seen, lines.Text())
		}
		ready <- seen
		io.Copy(io.Discard, out)
	}()
	select {
	case seen := <-ready:
		if slices.Sort(seen); !slices.Equal(seen, []string{"extracting", "uploading"}) {
			t.Fatalf("the helper said %q, want it extracting and uploading", seen)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the helper never got under way")
	}
	imports, uploads := glob(t, media, bundle.ImportPrefix), glob(t, tmp, "upload-")
	if len(imports) != 2 || len(uploads) != 2 {
		t.Fatalf("mid-import the data folder holds %q and %q; want a folder and a file, each with its lock", imports, uploads)
	}
	partial, err := os.Stat(filepath.Join(media, imports[0], "saves-normally.webm"))
	if err != nil || partial.Size() == 0 {
		t.Fatalf("no partly extracted video (%v)", err)
	}
	t.Logf("killing the importer with %d of %d bytes of the video extracted", partial.Size(), 4<<20)

	// While it lives, another process's start-up leaves its work alone.
	if code, _, stderr := run(t, "runs", "--data-dir", dir); code != 0 {
		t.Fatalf("runs: exit %d: %s", code, stderr)
	}
	if got := glob(t, media, bundle.ImportPrefix); !slices.Equal(got, imports) {
		t.Fatalf("a start-up beside a live import swept it: %q, was %q", got, imports)
	}
	if got := glob(t, tmp, "upload-"); !slices.Equal(got, uploads) {
		t.Fatalf("a start-up beside a live upload swept it: %q, was %q", got, uploads)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// This process's own import in progress must survive the sweep too.
	mine, err := scratch.Dir(media, bundle.ImportPrefix)
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Remove()
	code, _, stderr := run(t, "runs", "--data-dir", dir)
	if code != 0 || strings.Contains(stderr, "warning") {
		t.Fatalf("runs after the kill: exit %d: %s", code, stderr)
	}
	want := []string{filepath.Base(mine.Path), filepath.Base(mine.Path) + ".lock"}
	if got := glob(t, media, bundle.ImportPrefix); !slices.Equal(got, want) {
		t.Errorf("after the sweep media holds %q, want only the live import %q", got, want)
	}
	if got := glob(t, tmp, "upload-"); len(got) != 0 {
		t.Errorf("after the sweep the dead upload is still there: %q", got)
	}
}
