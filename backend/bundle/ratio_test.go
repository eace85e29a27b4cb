package bundle

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// screenshot is the name of a media entry of the good bundle.
const screenshot = "media/frame-1.jpg"

// deflated is good's entries with the entry named name replaced by data, every entry
// deflated as `zip -r` would, and the archive's size against data's.
func deflated(t *testing.T, name string, data []byte) (archive []byte, ratio float64) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entriesOf(t, goodBundle(t)) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		content := []byte(e.data)
		if e.name == name {
			content = data
		}
		if _, err := w.Write(content); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), float64(len(data)) / float64(buf.Len())
}

func TestZipBombEntryIsRefusedByName(t *testing.T) {
	bomb, ratio := deflated(t, screenshot, make([]byte, 64<<20)) // 64 MiB of zeros
	t.Logf("64 MiB of zeros in a %d-byte archive: %.0f to 1", len(bomb), ratio)
	root, saver := t.TempDir(), &fakeSaver{}
	_, err := Import(context.Background(), findFake, saver, root, "bomb.zip", bytes.NewReader(bomb), int64(len(bomb)))
	var refused *Error
	if !errors.As(err, &refused) || refused.Entry != screenshot || !strings.Contains(refused.Problem, "expands more than 200 times") {
		t.Fatalf("Import = %v, want the bomb entry refused for its ratio", err)
	}
	if len(saver.saved) != 0 || len(tree(t, root)) != 0 {
		t.Errorf("a refused bundle saved %d runs and left %q", len(saver.saved), tree(t, root))
	}
}

// TestCompressibleMediaWithinTheRatioIsAccepted: deflated media far more compressible than
// real JPEG or WebM (one varying byte in every hundred) still imports.
func TestCompressibleMediaWithinTheRatioIsAccepted(t *testing.T) {
	data := make([]byte, 4<<20)
	for i := 0; i < len(data); i += 100 {
		data[i] = byte(i / 100 * 7)
	}
	archive, ratio := deflated(t, screenshot, data)
	t.Logf("4 MiB of media in a %d-byte archive: %.0f to 1", len(archive), ratio)
	if ratio < 20 {
		t.Fatalf("the media deflate only %.1f to 1; the test wants a highly compressible entry", ratio)
	}
	root, saver := t.TempDir(), &fakeSaver{}
	if _, err := Import(context.Background(), findFake, saver, root, "ok.zip", bytes.NewReader(archive), int64(len(archive))); err != nil {
		t.Fatalf("Import of media deflating %.0f to 1: %v", ratio, err)
	}
	if len(saver.saved) != 1 {
		t.Errorf("saved %d runs, want 1", len(saver.saved))
	}
}

// TestRunFileBombIsRefusedByName: a run file is read into memory, up to runfile.MaxBytes; one
// padded with white space that deflates past MaxRatio is refused before it is all read.
func TestRunFileBombIsRefusedByName(t *testing.T) {
	var run string
	for _, e := range entriesOf(t, goodBundle(t)) {
		if e.name == RunFile {
			run = e.data
		}
	}
	padded := append([]byte(run[:len(run)-1]), bytes.Repeat([]byte(" "), 7<<20)...)
	padded = append(padded, '}')
	bomb, ratio := deflated(t, RunFile, padded)
	t.Logf("a %d-byte run file in a %d-byte archive: %.0f to 1", len(padded), len(bomb), ratio)
	root, saver := t.TempDir(), &fakeSaver{}
	_, err := Import(context.Background(), findFake, saver, root, "bomb.zip", bytes.NewReader(bomb), int64(len(bomb)))
	var refused *Error
	if !errors.As(err, &refused) || refused.Entry != RunFile || !strings.Contains(refused.Problem, "expands more than 200 times") {
		t.Fatalf("Import = %v, want run.json refused for its ratio", err)
	}
	if len(saver.saved) != 0 || len(tree(t, root)) != 0 {
		t.Errorf("a refused bundle saved %d runs and left %q", len(saver.saved), tree(t, root))
	}
}
