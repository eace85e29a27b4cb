package bundle

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzImport(f *testing.F) {
	good := goodBundle(f)
	f.Add(good)
	f.Add(buildZip(f, append(entriesOf(f, good), entry{name: "../x", data: "evil"})...))
	f.Add(buildZip(f, append(entriesOf(f, good), entry{name: "media/extra.jpg", data: "extra"})...))
	f.Fuzz(func(t *testing.T, data []byte) {
		parent := t.TempDir()
		root := filepath.Join(parent, "media")
		saver := &fakeSaver{}
		res, err := Import(context.Background(), findFake, saver, root, "fuzz.zip", bytes.NewReader(data), int64(len(data)))
		written := tree(t, parent)
		if err != nil {
			if len(saver.saved) != 0 || len(written) != 0 {
				t.Fatalf("refused bundle (%v) saved %d runs and wrote %q", err, len(saver.saved), written)
			}
			return
		}
		if len(saver.saved) != 1 {
			t.Fatalf("accepted bundle saved %d runs, want 1", len(saver.saved))
		}
		runDir := filepath.Join("media", res.Run.ID)
		for _, p := range written {
			if p != "media" && p != runDir && filepath.Dir(p) != runDir {
				t.Fatalf("accepted bundle wrote %q, outside %s", p, runDir)
			}
			if strings.Contains(p, ".import-") {
				t.Fatalf("accepted bundle left its temporary folder %q", p)
			}
		}
	})
}
