package bundle

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"observatory/backend/agent"
)

// fakeLab accepts any event log and judges every attempt not done: enough for runfile to
// import a run, which is all these tests need of a lab.
type fakeLab struct{}

func (fakeLab) Task() agent.Task {
	return agent.Task{Name: "fake", Intent: "Reserve it.", StartURL: "/"}
}
func (fakeLab) Plan() agent.Plan              { return nil }
func (fakeLab) Attempts() []agent.AttemptSpec { return nil }
func (fakeLab) Start(context.Context, agent.AttemptSpec) (agent.Environment, error) {
	return nil, errors.New("the fake lab serves nothing")
}
func (fakeLab) Judge(agent.Evidence) (agent.Verdicts, error) {
	return agent.Verdicts{Truth: agent.Signal{ID: "truth", Label: "truth"}, Gate: agent.Gate{Conditions: []agent.Condition{}}}, nil
}

func findFake(name string, _ json.RawMessage) (agent.Suite, error) {
	if name != "fake" {
		return nil, fmt.Errorf("no lab called %q", name)
	}
	return fakeLab{}, nil
}

// fakeSaver records what Import saved, or fails with err.
type fakeSaver struct {
	saved []agent.Run
	err   error
}

func (s *fakeSaver) SaveImported(run agent.Run) error {
	if s.err != nil {
		return s.err
	}
	s.saved = append(s.saved, run)
	return nil
}

var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// domPage is the DOM snapshot testRun names, domName its name: its content's (see
// agent.ContentName), which import checks.
const domPage = "<!DOCTYPE html><html><body><p>the page after</p></body></html>"

var domName = agent.ContentName([]byte(domPage), agent.DOMExt)

// testMedia are the media testRun names, with their bytes (only a name made of the content's
// hash, domName's, is checked against it).
var testMedia = map[string]string{
	"saves-normally.webm": "webm one",
	"wrong-room.webm":     "webm two",
	"frame-1.jpg":         "first frame",
	"frame-2.jpg":         "second frame",
	"frame-3.jpg":         "third frame",
	domName:               domPage,
}

// testRun is a finished run of the fake lab with two attempts, each with a video and
// screenshots; the two share their first frame, and the first's last step has a DOM snapshot.
func testRun() agent.Run {
	attempt := func(slug, last, dom string) agent.Attempt {
		return agent.Attempt{Slug: slug, Title: "Attempt " + slug, Task: fakeLab{}.Task(), Config: agent.DefaultConfig(),
			Terminal: agent.Failed, Reason: "it failed", Started: t0, Video: slug + ".webm",
			Plan: agent.Plan{}, Verdicts: agent.Verdicts{Truth: agent.Signal{ID: "truth", Label: "truth"}, Signals: []agent.Signal{}, Gate: agent.Gate{Conditions: []agent.Condition{}}},
			Steps: []agent.Step{
				{Index: 0, Before: agent.Sample{Screenshot: "frame-1.jpg"}, After: agent.Sample{Screenshot: "frame-2.jpg"}},
				{Index: 1, Before: agent.Sample{Screenshot: "frame-2.jpg"}, After: agent.Sample{Screenshot: last, DOM: dom}},
			}}
	}
	return agent.Run{ID: "0123456789abcdef", Task: "fake", Created: t0, Status: agent.RunFinished, Source: "live",
		Attempts: []agent.Attempt{attempt("saves-normally", "frame-3.jpg", domName), attempt("wrong-room", "", "")}}
}

// writeMedia writes files (name to content) into dir.
func writeMedia(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goodBundle exports testRun with all of testMedia.
func goodBundle(t testing.TB) []byte {
	t.Helper()
	dir := t.TempDir()
	writeMedia(t, dir, testMedia)
	var buf bytes.Buffer
	if _, err := Export(&buf, testRun(), dir); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// entry is one entry of a hand-built archive. A non-zero declared size is written into the
// header in place of the real one (a forged header); mode, when set, is the entry's mode.
type entry struct {
	name     string
	data     string
	mode     fs.FileMode
	declared uint64
}

// buildZip writes entries into an archive, stored, with whatever headers they ask for.
func buildZip(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Store, CRC32: crc32.ChecksumIEEE([]byte(e.data)),
			CompressedSize64: uint64(len(e.data)), UncompressedSize64: uint64(len(e.data))}
		if e.declared != 0 {
			h.UncompressedSize64 = e.declared
		}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// entriesOf reads an archive back as entries, in order, for tests to edit.
func entriesOf(t testing.TB, data []byte) []entry {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []entry
	for _, f := range zr.File {
		var b bytes.Buffer
		if err := copyEntry(&b, f); err != nil {
			t.Fatal(err)
		}
		out = append(out, entry{name: f.Name, data: b.String()})
	}
	return out
}

// tree lists every file and folder under root, relative to it.
func tree(t testing.TB, root string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != root {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, rel)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return paths
}
