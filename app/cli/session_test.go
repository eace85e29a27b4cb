package cli

import (
	"bytes"
	"encoding/json"
	"image/jpeg"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/app"
	"observatory/internal/trackertest"
)

// trackerPassword is the tracker's sign-in password, given to the task through the
// environment (value_env); it must appear nowhere Observatory writes.
const trackerPassword = "pw-3b1e-hunter2-never-stored"

// signInSteps is a session that signs in through the tracker's sign-in page before the plan.
const signInSteps = `
session:
  setup:
    - {description: Open the sign-in page, action: navigate, value: /login}
    - {description: Type the password, action: fill, target: {label: Password}, value_env: TRACKER_PASSWORD}
    - {description: Sign in, action: click, target: {role: button, name: Sign in}}
`

// TestTasksThatStartSignedIn runs the tracker's create-issue task in real Chromium against a
// tracker whose writes need a session: signed in by the task's setup steps, with the password
// from the environment; started signed in from a Playwright storage-state file; and with no
// session, where the page still says "Saved" but the API refused the write, so the gate is not
// done. Neither the password nor the session's token appears in the CLI's output, the exported
// run file or any file of the data folder (the store's SQLite files, the screenshots, the DOM
// snapshots), and the
// screenshot after the password was typed has the field masked.
func TestTasksThatStartSignedIn(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	task, err := os.ReadFile(trackerTask("create-issue.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, session string
		done          bool
	}{
		{"signs in through setup steps", signInSteps, true},
		{"starts signed in from a storage state", "\nsession: {storage_state: signed-in.json}\n", true},
		{"without a session the write is refused", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tracker := startTracker(t, trackertest.Options{Password: trackerPassword})
			t.Setenv("TRACKER_PASSWORD", trackerPassword)
			state, token, err := tracker.StorageState(trackerPassword)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "task.yaml")
			if err := os.WriteFile(path, append(task, tt.session...), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "signed-in.json"), state, 0o600); err != nil {
				t.Fatal(err)
			}
			data, export := filepath.Join(dir, "data"), filepath.Join(dir, "run.json")
			code, out, errOut := runTracker(t, "run", path, "--no-video", "--bodies", "--dom-snapshots", "--export", export, "--data-dir", data)
			if !ranThrough(code, errOut) || (code == 0) != tt.done {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			row := tableRow(out, "create-issue")
			want := []string{"create-issue", "yes", "done", "done", "done", "completed"}
			if !tt.done {
				want = []string{"create-issue", "no", "done (wrong)", "done (wrong)", "not done", "failed"}
			}
			if strings.Join(row, "|") != strings.Join(want, "|") {
				t.Errorf("the row is %q, want %q\n%s", row, want, out)
			}
			issues, err := tracker.Issues(t.Context())
			if err != nil || (len(issues) == 1) != tt.done {
				t.Errorf("the tracker stores %v (%v)", issues, err)
			}
			secrets := map[string]string{"the password": trackerPassword, "the session's token": token}
			for what, secret := range secrets {
				if strings.Contains(out, secret) || strings.Contains(errOut, secret) {
					t.Errorf("the CLI printed %s", what)
				}
			}
			runFile, err := os.ReadFile(export)
			if err != nil {
				t.Fatal(err)
			}
			holds := map[string][]byte{export: runFile}
			err = filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				holds[p] = b
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if files := strings.Join(mapKeys(holds), " "); !strings.Contains(files, "observatory.db") || !strings.Contains(files, ".dom.txt") {
				t.Fatalf("no store or no DOM snapshot among the data folder's files %v", mapKeys(holds))
			}
			for p, b := range holds {
				for what, secret := range secrets {
					if bytes.Contains(b, []byte(secret)) {
						t.Errorf("%s holds %s", p, what)
					}
				}
			}
			if tt.session == signInSteps {
				maskedPassword(t, runFile, app.MediaRoot(data))
			}
		})
	}
}

// tableRow is the cells of the attempts table's row for slug in a run's printed output.
func tableRow(out, slug string) []string {
	for line := range strings.Lines(out) {
		cells := strings.Split(strings.TrimSpace(line), "  ")
		if cells[0] != slug {
			continue
		}
		var row []string
		for _, c := range cells {
			if c = strings.TrimSpace(c); c != "" {
				row = append(row, c)
			}
		}
		return row
	}
	return nil
}

func mapKeys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// maskedPassword finds the step that typed the password in runFile and checks that it is
// recorded masked: its value and the field's value in the sample after it, and, in the
// screenshot after it, the field's box painted over (Playwright's mask, magenta).
func maskedPassword(t *testing.T, runFile []byte, mediaRoot string) {
	t.Helper()
	type sample struct {
		Fields     []struct{ Name, Value string }
		Screenshot string
	}
	var f struct {
		Run      struct{ ID string }
		Attempts []struct {
			Steps []struct {
				Action    struct{ ID, Value string }
				After     sample
				TargetBox *struct{ X, Y, Width, Height float64 } `json:"target_box"`
			}
		}
	}
	if err := json.Unmarshal(runFile, &f); err != nil || len(f.Attempts) != 1 {
		t.Fatalf("the run file: %v", err)
	}
	for _, s := range f.Attempts[0].Steps {
		if s.Action.ID != "setup-2" {
			continue
		}
		if s.Action.Value != "••••••" {
			t.Errorf("the password step's value is recorded as %q", s.Action.Value)
		}
		for _, fl := range s.After.Fields {
			if fl.Name == "Password" && fl.Value != "" && fl.Value != "••••••" {
				t.Errorf("the sample after it shows the field as %q", fl.Value)
			}
		}
		if s.TargetBox == nil || s.After.Screenshot == "" {
			t.Fatalf("the password step has no box (%v) or no screenshot (%q)", s.TargetBox, s.After.Screenshot)
		}
		img, err := os.Open(filepath.Join(mediaRoot, f.Run.ID, s.After.Screenshot))
		if err != nil {
			t.Fatal(err)
		}
		defer img.Close()
		pic, err := jpeg.Decode(img)
		if err != nil {
			t.Fatal(err)
		}
		b := s.TargetBox
		r, g, bl, _ := pic.At(int(b.X+b.Width/2), int(b.Y+b.Height/2)).RGBA()
		if r>>8 < 200 || g>>8 > 80 || bl>>8 < 200 {
			t.Errorf("the password field's box in the screenshot is rgb(%d, %d, %d), not masked", r>>8, g>>8, bl>>8)
		}
		return
	}
	t.Fatal("no step typed the password")
}
