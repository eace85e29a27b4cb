package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/app"
	"observatory/backend/bundle"
	"observatory/internal/tampertest"
	"observatory/internal/trackertest"
)

var update = flag.Bool("update", false, "rewrite ../testdata/create-issue.run.json from a real run of the tracker")

// taskRunFixture is the run file of a real run of the tracker's create-issue task: its run
// carries the task document (spec) and its attempt the oracles' raw answers.
var taskRunFixture = filepath.Join("..", "testdata", "create-issue.run.json")

// trackerToken is the secret the create-issue task sends in a header; it must appear nowhere.
const trackerToken = "tok-7f3a9c-never-stored"

// trackerTask is the path of one of the tracker's task files.
func trackerTask(name string) string {
	return filepath.Join("..", "..", "backend", "taskfile", "testdata", "tracker", name)
}

// startTracker serves the issue tracker (in a SQLite file) for the test and sets the
// environment variables its task files read.
func startTracker(t *testing.T, opts trackertest.Options) *trackertest.Server {
	t.Helper()
	opts.SQLite = filepath.Join(t.TempDir(), "tracker.db")
	tr, err := trackertest.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	t.Setenv("TRACKER_URL", strings.TrimSuffix(tr.URL, "/"))
	t.Setenv("TRACKER_DB", opts.SQLite)
	t.Setenv("TRACKER_TOKEN", trackerToken)
	return tr
}

// runTracker runs the command with what the user allows the tracker's task files: the
// folder of its database, and the variables startTracker sets.
func runTracker(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	allowed := []string{"--allow-path", filepath.Dir(os.Getenv("TRACKER_DB")),
		"--allow-env", "TRACKER_URL", "--allow-env", "TRACKER_DB", "--allow-env", "TRACKER_TOKEN", "--allow-env", "TRACKER_PASSWORD"}
	return run(t, append(args, allowed...)...)
}

// TestATaskFileRunVerifiesAndImports runs the tracker's create-issue task file in real
// Chromium, exports the run as a bundle with its screenshots, and puts the run file and every
// tampered variant of it through verify and import (see checkVerifyAndImport). With -update it
// rewrites the committed fixture from this run.
func TestATaskFileRunVerifiesAndImports(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	startTracker(t, trackertest.Options{})
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "run.zip")
	code, out, errOut := runTracker(t, "run", trackerTask("create-issue.yaml"), "--no-video", "--dom-snapshots", "--export", zipPath, "--data-dir", dir)
	if code != 0 || !strings.Contains(out, "create-issue") || !strings.Contains(out, "completed") {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	zipped, err := os.ReadFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	runFile, err := bundle.RunFileOf(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		// The fixture holds no media: export the stored run as a run file alone.
		if code, _, errOut := run(t, "export", storedRunID(t, dir), "-o", taskRunFixture, "--data-dir", dir); code != 0 {
			t.Fatalf("export the fixture: %s", errOut)
		}
	}
	checkVerifyAndImport(t, runFile, zipped)
	domSnapshotsImported(t, runFile, zipPath)
}

// domSnapshotsImported checks that the run recorded a DOM snapshot on every sample and that
// importing its bundle stores each one, the page's markup without a script.
func domSnapshotsImported(t *testing.T, runFile []byte, zipPath string) {
	t.Helper()
	var doc struct {
		Attempts []struct {
			Steps []struct{ Before, After struct{ DOM string } }
		}
	}
	if err := json.Unmarshal(runFile, &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range doc.Attempts {
		for _, s := range a.Steps {
			for _, d := range []string{s.Before.DOM, s.After.DOM} {
				if !strings.HasSuffix(d, ".dom.txt") {
					t.Fatalf("a sample names DOM snapshot %q", d)
				}
				names = append(names, d)
			}
		}
	}
	dataDir := filepath.Join(t.TempDir(), "data")
	if code, out, errOut := run(t, "import", zipPath, "--data-dir", dataDir); code != 0 {
		t.Fatalf("import the bundle: exit %d\n%s\n%s", code, out, errOut)
	}
	id := storedRunID(t, dataDir)
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(app.MediaRoot(dataDir), id, name))
		if err != nil {
			t.Fatalf("the imported run's DOM snapshot: %v", err)
		}
		if !strings.Contains(string(b), "<html") || strings.Contains(string(b), "<script") || strings.Contains(string(b), trackerToken) {
			t.Errorf("%s is not the page's static markup:\n%.400s", name, b)
		}
	}
}

// TestTheTaskFileRunFixtureVerifiesAndImports puts the committed run file of a real tracker
// run, and every tampered variant of it, through verify and import, with no browser.
func TestTheTaskFileRunFixtureVerifiesAndImports(t *testing.T) {
	runFile, err := os.ReadFile(taskRunFixture)
	if err != nil {
		t.Fatal(err)
	}
	checkVerifyAndImport(t, runFile, nil)
}

// checkVerifyAndImport puts each variant of runFile (see tampertest.Cases), as a run file and
// as a bundle with the media of from (a bundle, or nil), through `observatory verify` and
// `observatory import`. The honest file verifies and imports; a tampered answer or a flipped
// verdict is flagged, naming the condition, and imported with the recomputed verdicts; a
// refused file is refused at its path and stores nothing: no run, no media.
func checkVerifyAndImport(t *testing.T, runFile, from []byte) {
	t.Helper()
	if strings.Contains(string(runFile), trackerToken) {
		t.Fatal("the run file holds the header's secret")
	}
	var probe struct {
		Run      struct{ Spec json.RawMessage }
		Attempts []struct{ Answers []json.RawMessage }
	}
	if err := json.Unmarshal(runFile, &probe); err != nil || len(probe.Run.Spec) == 0 || len(probe.Attempts) == 0 || len(probe.Attempts[0].Answers) == 0 {
		t.Fatalf("not a task-file run with answers (%v)", err)
	}
	cases, err := tampertest.Cases(runFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			zipped, err := tampertest.Bundle(from, c.File)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for name, data := range map[string][]byte{"run.json": c.File, "run.zip": zipped} {
				path := filepath.Join(dir, name)
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				dataDir := filepath.Join(dir, "data-"+name)
				vcode, vout, verr := run(t, "verify", path)
				icode, iout, ierr := run(t, "import", path, "--data-dir", dataDir)
				if c.RefusedAt != "" {
					want := path + ": run file refused at " + c.RefusedAt + ":"
					if vcode != 1 || !strings.Contains(verr, want) {
						t.Errorf("verify %s: exit %d\n%s\nwant it refused: %s", name, vcode, verr, want)
					}
					if icode != 1 || !strings.Contains(ierr, name+": run file refused at "+c.RefusedAt+":") || iout != "" {
						t.Errorf("import %s: exit %d\n%s%s\nwant it refused at %s", name, icode, iout, ierr, c.RefusedAt)
					}
					nothingRecorded(t, dataDir)
					continue
				}
				wantCode := 0
				if len(c.Disagree) > 0 {
					wantCode = 1
				}
				if vcode != wantCode || !strings.Contains(vout, "create-issue") {
					t.Errorf("verify %s: exit %d, want %d\n%s\n%s", name, vcode, wantCode, vout, verr)
				}
				if icode != 0 || !strings.Contains(iout, "imported "+path+" as run ") {
					t.Errorf("import %s: exit %d\n%s\n%s", name, icode, iout, ierr)
				}
				for _, d := range c.Disagree {
					line := "disagreement: " + c.Attempt + ": " + d + " recorded "
					if !strings.Contains(verr, line) || !strings.Contains(ierr, line) {
						t.Errorf("%s: verify and import do not both report %q:\n%s\n%s", name, line, verr, ierr)
					}
				}
				if len(c.Disagree) == 0 && (strings.Contains(verr, "disagreement") || strings.Contains(ierr, "disagreement")) {
					t.Errorf("%s: the honest file is said to disagree:\n%s\n%s", name, verr, ierr)
				}
				storedRunID(t, dataDir)
				if media, _ := os.ReadDir(filepath.Join(app.MediaRoot(dataDir))); name == "run.zip" && from != nil && len(media) == 0 {
					t.Errorf("importing the bundle stored no media")
				}
			}
		})
	}
}

// storedRunID is the id of the one run stored in the data folder dir.
func storedRunID(t *testing.T, dir string) string {
	t.Helper()
	_, out, _ := run(t, "runs", "--json", "--data-dir", dir)
	var runs []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("want one stored run: %v %s", err, out)
	}
	return runs[0].ID
}
