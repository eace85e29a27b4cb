package runfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func FuzzDecode(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "bad", "*.json"))
	paths = append(paths, filepath.Join("testdata", "good.json"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		saver := &fakeSaver{}
		res, err := Import(findFake, saver, "fuzz.json", bytes.NewReader(data))
		if err != nil {
			if len(saver.saved) != 0 {
				t.Fatalf("refused file (%v) stored a run", err)
			}
			return
		}
		if len(saver.saved) != 1 {
			t.Fatalf("accepted file stored %d runs, want 1", len(saver.saved))
		}
		// An accepted file is one Encode writes again, and that reads back.
		var buf bytes.Buffer
		if err := Encode(&buf, res.Run); err != nil {
			t.Fatalf("re-encoding an accepted file: %v", err)
		}
		if _, err := Decode(&buf); err != nil {
			t.Fatalf("re-encoded file refused: %v", err)
		}
	})
}
