package bundle

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"observatory/backend/runfile"
)

// TestRunFileWithADuplicateKeyIsRefused: a bundle's run.json gets the same strict reading as
// a run file on its own, so a second "terminal" in an attempt is refused with its path and
// nothing is written.
func TestRunFileWithADuplicateKeyIsRefused(t *testing.T) {
	good := entriesOf(t, goodBundle(t))
	for i, e := range good {
		if e.name == RunFile {
			e.data = strings.Replace(e.data, `"terminal": "failed",`, `"terminal": "completed", "terminal": "failed",`, 1)
			good[i] = e
		}
	}
	data := buildZip(t, good...)
	root, saver := t.TempDir(), &fakeSaver{}
	_, err := Import(context.Background(), findFake, saver, root, "dup.zip", bytes.NewReader(data), int64(len(data)))
	var refused *runfile.Error
	if !errors.As(err, &refused) || refused.Path != "attempts[0].terminal" || !strings.Contains(refused.Problem, `duplicate key "terminal"`) {
		t.Fatalf("Import = %v, want a refusal of the duplicate at attempts[0].terminal", err)
	}
	if len(saver.saved) != 0 || len(tree(t, root)) != 0 {
		t.Errorf("a refused bundle saved %d runs and wrote %q", len(saver.saved), tree(t, root))
	}
}
