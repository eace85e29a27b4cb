package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/labs/booking"
)

// TestRunOnlyTheNamedAttemptOfATaskFile checks `run TASK-FILE --attempt NAME`: an attempt the
// file does not have is refused, listing the ones it has, before anything is recorded; a
// known one runs alone, in real Chromium, and gives its seed row, from the task file on disk
// and from the lab's built-in task file (--task-file) alike. --task-file is refused with a
// file of its own, and for a lab that ships none.
func TestRunOnlyTheNamedAttemptOfATaskFile(t *testing.T) {
	var known []string
	for _, a := range booking.New().Attempts() {
		known = append(known, a.Slug)
	}
	refusals := []struct {
		name string
		args []string
		want string
	}{
		{"an unknown attempt of a task file", []string{bookingTaskFile, "--attempt", "nope"},
			`task "booking" has no attempt "nope"; it has [` + strings.Join(known, " ") + "]"},
		{"an unknown attempt of the lab's task file", []string{"--lab", "booking", "--task-file", "--attempt", "saves-normaly"},
			`task "booking" has no attempt "saves-normaly"; it has [` + strings.Join(known, " ") + "]"},
		{"a known attempt beside an unknown one", []string{bookingTaskFile, "--attempt", "wrong-room", "--attempt", "nope"}, `has no attempt "nope"`},
		{"a lab without a task file", []string{"--lab", "canvas", "--task-file"}, "the canvas lab ships no task file; these do: booking, checkout"},
		{"--task-file and a task file", []string{bookingTaskFile, "--task-file"}, "--task-file runs the lab's own task file; give it or " + bookingTaskFile + ", not both"},
	}
	for _, r := range refusals {
		dir := t.TempDir()
		code, out, errOut := run(t, append(append([]string{"run"}, r.args...), "--data-dir", dir)...)
		if code != 1 || out != "" || !strings.Contains(errOut, r.want) {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q\nwant exit 1 and %q", r.name, code, out, errOut, r.want)
		}
		nothingRecorded(t, dir)
	}
	if testing.Short() {
		return
	}
	for _, tt := range []struct {
		task    []string
		attempt string
	}{
		{[]string{bookingTaskFile}, "wrong-room"},
		{[]string{"--lab", "booking", "--task-file"}, "renamed-button-exact"},
	} {
		dir := t.TempDir()
		export := filepath.Join(dir, "run.json")
		args := append(append([]string{"run"}, tt.task...), "--attempt", tt.attempt, "--no-video", "--no-screenshots", "--export", export, "--data-dir", dir)
		code, out, errOut := run(t, args...)
		if !ranThrough(code, errOut) {
			t.Fatalf("run %v --attempt %s: exit %d: %s", tt.task, tt.attempt, code, errOut)
		}
		if table := tableLines(out); len(table) != 3 || !strings.HasPrefix(table[2], "WRONG ") || !strings.Contains(table[2], " of 1 ") {
			t.Errorf("run %v --attempt %s: want a table of one row:\n%s", tt.task, tt.attempt, out)
		}
		if got, want := strings.Join(tableRow(out, tt.attempt), " | "), seedRow(tt.attempt); got != want {
			t.Errorf("run %v --attempt %s: %s\nwant the seed's %s", tt.task, tt.attempt, got, want)
		}
		if !strings.Contains(errOut, "1 attempts of task booking ("+tt.attempt+")") {
			t.Errorf("run %v --attempt %s does not say it runs only that attempt:\n%s", tt.task, tt.attempt, errOut)
		}
		b, err := os.ReadFile(export)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Run      struct{ Spec json.RawMessage }
			Attempts []struct{ Attempt string }
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		if len(f.Run.Spec) == 0 || !reflect.DeepEqual(f.Attempts, []struct{ Attempt string }{{tt.attempt}}) {
			t.Errorf("run %v --attempt %s recorded %+v (spec %d bytes); want that attempt alone, with the task file",
				tt.task, tt.attempt, f.Attempts, len(f.Run.Spec))
		}
		storedRunID(t, dir)
	}
}
