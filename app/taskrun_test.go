package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/runfile"
	"observatory/backend/store"
	"observatory/internal/tampertest"
)

// TestVerifyAndImportOfATaskFileRun puts the committed run file of a real run of the
// tracker's create-issue task file (its run carries the task document, its attempt the
// oracles' raw answers), and each tampered variant of it, through the package API:
// runfile.Verify with Resolve, and Transfer.ImportFile as a run file and as a bundle. The
// honest file verifies and imports as it was; a tampered answer or a flipped verdict is
// flagged and stored with the verdicts recomputed; a refused file is refused at its path
// with a *runfile.Error and leaves the store and the media folder empty.
func TestVerifyAndImportOfATaskFileRun(t *testing.T) {
	honest, err := os.ReadFile(filepath.Join("testdata", "create-issue.run.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := tampertest.Cases(honest)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res, err := verify(c.File)
			if c.RefusedAt != "" {
				refusedAt(t, "verify", err, c.RefusedAt)
			} else if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range res.Disagreements {
				if d.Attempt == c.Attempt {
					got = append(got, d.Verdict)
				}
			}
			for _, want := range c.Disagree {
				if !slices.Contains(got, want) {
					t.Errorf("the replay finds %v wrong, not %s", res.Disagreements, want)
				}
			}
			if len(c.Disagree) == 0 && len(res.Disagreements) > 0 {
				t.Errorf("the honest file disagrees: %v", res.Disagreements)
			}
			zipped, err := tampertest.Bundle(nil, c.File)
			if err != nil {
				t.Fatal(err)
			}
			for name, data := range map[string][]byte{"run.json": c.File, "run.zip": zipped} {
				dir := t.TempDir()
				path := filepath.Join(dir, name)
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				st, err := store.Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				imported, err := NewTransfer(st, dir).ImportFile(context.Background(), path)
				stored, lerr := st.List()
				if lerr != nil {
					t.Fatal(lerr)
				}
				media, _ := os.ReadDir(MediaRoot(dir))
				switch {
				case c.RefusedAt != "":
					refusedAt(t, "import "+name, err, c.RefusedAt)
					if len(stored) > 0 || len(media) > 0 {
						t.Errorf("import %s: a refused file left %d runs and %d media entries", name, len(stored), len(media))
					}
				case err != nil:
					t.Errorf("import %s: %v", name, err)
				case len(stored) != 1 || len(imported.Disagreements) != len(res.Disagreements):
					t.Errorf("import %s: %d runs stored, disagreements %v; want 1 run and %v", name, len(stored), imported.Disagreements, res.Disagreements)
				default:
					run, err := st.Get(imported.RunID)
					if err != nil {
						t.Fatal(err)
					}
					a, want := run.Attempts[0], res.Run.Attempts[0]
					if run.Status != agent.RunImported || a.Verdicts.Gate.Done != want.Verdicts.Gate.Done || a.Terminal != want.Terminal {
						t.Errorf("import %s stored %s, gate %v, %s; the replay recomputed gate %v, %s",
							name, run.Status, a.Verdicts.Gate.Done, a.Terminal, want.Verdicts.Gate.Done, want.Terminal)
					}
				}
				st.Close()
			}
			if c.Name == "a tampered http answer" && (res.Run.Attempts[0].Verdicts.Gate.Done || res.Run.Attempts[0].Terminal != agent.Ambiguous) {
				t.Errorf("the tampered answer's attempt is recomputed gate %v, %s; want not done, ambiguous",
					res.Run.Attempts[0].Verdicts.Gate.Done, res.Run.Attempts[0].Terminal)
			}
		})
	}
}

// verify decodes a run file and replays it with the suite Resolve finds.
func verify(data []byte) (runfile.Result, error) {
	f, err := runfile.Decode(bytes.NewReader(data))
	if err != nil {
		return runfile.Result{}, err
	}
	return runfile.Verify(Resolve, f)
}

// refusedAt checks that err is a *runfile.Error at path.
func refusedAt(t *testing.T, what string, err error, path string) {
	t.Helper()
	var re *runfile.Error
	if !errors.As(err, &re) || re.Path != path {
		t.Errorf("%s: %v; want a *runfile.Error at %s", what, err, path)
	}
}
