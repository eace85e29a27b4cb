package bundle

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/runfile"
)

func TestExportWritesRunFileThenEachMediaOnce(t *testing.T) {
	data := goodBundle(t)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		want := zip.Store
		if f.Name == RunFile {
			want = zip.Deflate
		}
		if f.Method != want {
			t.Errorf("%s: method %d, want %d", f.Name, f.Method, want)
		}
	}
	want := []string{RunFile, "media/saves-normally.webm", "media/frame-1.jpg", "media/frame-2.jpg",
		"media/frame-3.jpg", "media/" + domName, "media/wrong-room.webm"}
	if !slices.Equal(names, want) {
		t.Errorf("entries = %q\nwant %q", names, want)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	f, err := runfile.Decode(rc)
	if err != nil {
		t.Fatalf("run.json is not a run file runfile reads: %v", err)
	}
	gotJSON, _ := json.Marshal(f.Run.Attempts)
	wantJSON, _ := json.Marshal(testRun().Attempts)
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("run.json attempts differ from the run's:\n got %s\nwant %s", gotJSON, wantJSON)
	}
}

func TestExportSkipsAndReportsMissingMedia(t *testing.T) {
	dir := t.TempDir()
	present := map[string]string{}
	for name, content := range testMedia {
		if name != "wrong-room.webm" && name != "frame-2.jpg" {
			present[name] = content
		}
	}
	writeMedia(t, dir, present)
	var buf bytes.Buffer
	missing, err := Export(&buf, testRun(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"frame-2.jpg", "wrong-room.webm"}; !slices.Equal(missing, want) {
		t.Errorf("missing = %q, want %q", missing, want)
	}
	// What was left out is simply absent: the bundle still imports, with the media it has.
	root := t.TempDir()
	res, err := Import(context.Background(), findFake, &fakeSaver{}, root, "partial.zip", bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if got := tree(t, filepath.Join(root, res.Run.ID)); len(got) != len(present) {
		t.Errorf("extracted %q, want the %d media present at export", got, len(present))
	}
}

func TestExportRefusesWithoutWriting(t *testing.T) {
	cases := []struct {
		name string
		edit func(*agent.Run)
		want string
	}{
		{"escaping video", func(r *agent.Run) { r.Attempts[1].Video = "../secret.webm" }, `media name "../secret.webm"`},
		{"nested screenshot", func(r *agent.Run) { r.Attempts[0].Steps[0].After.Screenshot = "sub/x.jpg" }, `media name "sub/x.jpg"`},
		{"hidden video", func(r *agent.Run) { r.Attempts[0].Video = ".hidden.webm" }, `media name ".hidden.webm"`},
		{"backslash", func(r *agent.Run) { r.Attempts[0].Video = `a\b.webm` }, `media name "a\\b.webm"`},
		{"unfinished attempt", func(r *agent.Run) { r.Attempts[0].Terminal = "" }, "never finished is exported only from a run its process left interrupted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeMedia(t, dir, testMedia)
			run := testRun()
			c.edit(&run)
			var buf bytes.Buffer
			_, err := Export(&buf, run, dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Export error = %v, want one containing %q", err, c.want)
			}
			if buf.Len() != 0 {
				t.Errorf("a refused export wrote %d bytes", buf.Len())
			}
		})
	}
}

func TestRoundTripExtractsByteIdenticalMediaUnderTheNewID(t *testing.T) {
	data := goodBundle(t)
	root := filepath.Join(t.TempDir(), "media") // not yet made: Import makes it
	saver := &fakeSaver{}
	res, err := Import(context.Background(), findFake, saver, root, "shared.zip", bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(saver.saved) != 1 || !reflect.DeepEqual(saver.saved[0], res.Run) {
		t.Fatalf("saved %d runs, want exactly the imported one", len(saver.saved))
	}
	run := res.Run
	if run.ID == testRun().ID || len(run.ID) != 16 || run.Source != "shared.zip" || run.Status != agent.RunImported {
		t.Errorf("imported run id %q source %q status %q: want a fresh id, source shared.zip, imported", run.ID, run.Source, run.Status)
	}
	if got := tree(t, root); !slices.Equal(got, append([]string{run.ID}, prefixed(run.ID, sortedKeys(testMedia))...)) {
		t.Errorf("media root holds %q, want only the run's folder with its %d media", got, len(testMedia))
	}
	// The stored paths stay relative, so they resolve under the new id.
	refs, err := runfile.MediaNames(run.Attempts)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range refs {
		got, err := os.ReadFile(filepath.Join(root, run.ID, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != testMedia[name] {
			t.Errorf("%s = %q, want %q", name, got, testMedia[name])
		}
	}
	if len(refs) != len(testMedia) {
		t.Errorf("the imported run names %d media, want %d", len(refs), len(testMedia))
	}
}

func TestImportRemovesTheMediaWhenSavingFails(t *testing.T) {
	data := goodBundle(t)
	root := t.TempDir()
	saver := &fakeSaver{err: os.ErrPermission}
	if _, err := Import(context.Background(), findFake, saver, root, "shared.zip", bytes.NewReader(data), int64(len(data))); err == nil {
		t.Fatal("imported although saving failed")
	}
	if got := tree(t, root); len(got) != 0 {
		t.Errorf("a failed save left %q behind", got)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func prefixed(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(dir, n)
	}
	return out
}

func TestExtractLeavesNothingWhenTheRunFolderCannotBeMade(t *testing.T) {
	data := goodBundle(t)
	c, err := scan(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	// A folder already there under the run's id (an id collision) stops the rename.
	writeMedia(t, filepath.Join(root, "taken"), map[string]string{"keep.jpg": "theirs"})
	if _, _, err := (mediaSaver{media: c.media, root: root, meter: c.meter}).extract("taken"); err == nil {
		t.Fatal("extracted over an existing run folder")
	}
	if got, want := tree(t, root), []string{"taken", filepath.Join("taken", "keep.jpg")}; !slices.Equal(got, want) {
		t.Errorf("media root holds %q, want only the existing %q", got, want)
	}
}

// TestImportStoppedMidExtractKeepsNothing: a context that ends while a medium is extracted
// stops the import there; it returns the context's error, not a refusal, saves no run and
// leaves nothing in the media root.
func TestImportStoppedMidExtractKeepsNothing(t *testing.T) {
	data := goodBundle(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The archive's directory lies past the entries; reading the last medium's data stops it.
	r := &cancelAt{r: bytes.NewReader(data), at: int64(len(data)) / 2, cancel: cancel}
	root, saver := t.TempDir(), &fakeSaver{}
	_, err := Import(ctx, findFake, saver, root, "stopped.zip", r, int64(len(data)))
	var refused *Error
	if !errors.Is(err, context.Canceled) || errors.As(err, &refused) {
		t.Fatalf("Import = %v, want the context's cancellation", err)
	}
	if !r.fired {
		t.Fatal("the import never read past the middle of the archive")
	}
	if len(saver.saved) != 0 || len(tree(t, root)) != 0 {
		t.Errorf("a stopped import saved %d runs and left %q", len(saver.saved), tree(t, root))
	}
}

// cancelAt reads from r and calls cancel the first time a read reaches offset at.
type cancelAt struct {
	r      *bytes.Reader
	at     int64
	cancel func()
	fired  bool
}

func (c *cancelAt) ReadAt(p []byte, off int64) (int, error) {
	if !c.fired && off <= c.at && c.at < off+int64(len(p)) {
		c.fired = true
		c.cancel()
	}
	return c.r.ReadAt(p, off)
}
