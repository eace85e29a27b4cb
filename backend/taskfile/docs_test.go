package taskfile_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/taskfile"
)

// trackerEnv is what the documented example reads from the environment.
func trackerEnv(name string) (string, bool) {
	v, ok := map[string]string{"TRACKER_URL": "http://127.0.0.1:8080", "TRACKER_DB": "/tmp/tracker.db", "TRACKER_TOKEN": "t"}[name]
	return v, ok
}

// trackerTrust is what the user allows the documented example: the folder of its database,
// and its variables.
var trackerTrust = taskfile.Trust{Paths: []string{"/tmp"}, Env: []string{"TRACKER_URL", "TRACKER_DB", "TRACKER_TOKEN"}}

// yamlBlocks are the ```yaml blocks of the Markdown file at path, in order.
func yamlBlocks(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	rest := string(b)
	for {
		_, after, ok := strings.Cut(rest, "\n```yaml\n")
		if !ok {
			return blocks
		}
		block, tail, ok := strings.Cut(after, "\n```\n")
		if !ok {
			t.Fatalf("%s: a ```yaml block that never ends", path)
		}
		blocks = append(blocks, block+"\n")
		rest = tail
	}
}

// specOf is the normalized document of a task, as a map, without its config section.
func specOf(t *testing.T, s taskfile.Suite) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(s.Spec(), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "config")
	return m
}

// TestTheDocumentedTaskFilesAreTheTestedOnes extracts the task-file examples of docs/tasks.md
// and docs/taskfile.md and checks them with the reader, so the documentation cannot drift
// from the format: each complete example loads and is, but for comments and its config, the
// tracker task the end-to-end tests run (testdata/tracker/create-issue.yaml); each fragment
// loads as part of a task.
func TestTheDocumentedTaskFilesAreTheTestedOnes(t *testing.T) {
	opts := taskfile.Options{LookupEnv: trackerEnv, Trust: trackerTrust}
	tested, err := taskfile.Load(filepath.Join("testdata", "tracker", "create-issue.yaml"), opts)
	if err != nil {
		t.Fatal(err)
	}
	// The files the fragments name, for them to find.
	files := t.TempDir()
	if err := os.WriteFile(filepath.Join(files, "signed-in.json"), []byte(`{"cookies": [], "origins": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{filepath.Join("..", "..", "docs", "tasks.md"), filepath.Join("..", "..", "docs", "taskfile.md")} {
		blocks := yamlBlocks(t, doc)
		complete := 0
		for i, block := range blocks {
			name := fmt.Sprintf("%s block %d", doc, i+1)
			if !strings.HasPrefix(block, "schema: "+taskfile.SchemaV1+"\n") {
				if _, err := taskfile.Parse(name+".yaml", fmt.Appendf(nil, minimal, block), files, opts); err != nil {
					t.Errorf("the fragment does not load as part of a task: %v\n%s", err, block)
				}
				continue
			}
			complete++
			s, err := taskfile.Parse(name+".yaml", []byte(block), "", opts)
			if err != nil {
				t.Errorf("the example does not load: %v", err)
				continue
			}
			if got, want := specOf(t, s), specOf(t, tested); !reflect.DeepEqual(got, want) {
				g, _ := json.MarshalIndent(got, "", "  ")
				w, _ := json.MarshalIndent(want, "", "  ")
				t.Errorf("%s is not the tracker task the tests run:\n%s\nwant\n%s", name, g, w)
			}
		}
		if complete != 1 {
			t.Errorf("%s has %d complete task-file examples, want 1", doc, complete)
		}
	}
}
