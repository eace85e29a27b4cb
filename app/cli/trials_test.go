package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"observatory/backend/browser/browsertest"
	"observatory/backend/compare"
)

// TestRepeatAndCompare runs two of the booking lab's task file's attempts twice each, with
// exact selectors and then with aliases, through the command line: `run --repeat 2 --json`
// gives every trial, numbered, and the estimates; `compare` reads both runs back and says
// the renamed button completes only with aliases, but that two trials cannot show it.
func TestRepeatAndCompare(t *testing.T) {
	browsertest.Ready(t)
	dir := t.TempDir()
	var ids []string
	for _, mode := range []string{"exact", "alias"} {
		code, out, errOut := run(t, "run", "--lab", "booking", "--task-file", "--attempt", "renamed-button-exact", "--attempt", "saves-normally",
			"--repeat", "2", "--parallel", "2", "--selectors", mode, "--no-video", "--no-screenshots", "--json", "--data-dir", dir)
		if code != 0 {
			t.Fatalf("run --selectors %s: exit %d\n%s%s", mode, code, out, errOut)
		}
		var got trialsJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("run --repeat --json: %v\n%s", err, out)
		}
		var slugs []string
		for _, r := range got.Trials {
			slugs = append(slugs, r.Attempt)
			if !strings.HasSuffix(r.Attempt, ".t1") && !strings.HasSuffix(r.Attempt, ".t2") || r.Trial < 1 || r.Trial > 2 {
				t.Errorf("trial row %s, trial %d: want slug.t1 or .t2", r.Attempt, r.Trial)
			}
		}
		if len(slugs) != 4 || got.Estimates.K != 2 || len(got.Estimates.Slices) != 2 || got.Estimates.Overall.Attempts != 4 {
			t.Errorf("%s: trials %v, estimates %+v: want 4 trials, k 2, two attempts", mode, slugs, got.Estimates)
		}
		id := strings.Fields(strings.SplitN(errOut, "\n", 2)[0])[1] // "run ID: ..."
		ids = append(ids, strings.TrimSuffix(id, ":"))
	}
	code, out, errOut := run(t, "compare", ids[0], ids[1], "--data-dir", dir)
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s%s", code, out, errOut)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 3 {
			rows[f[0]] = f
		}
	}
	if r := rows["renamed-button-exact"]; len(r) < 3 || r[1] != "0/2" || r[2] != "2/2" {
		t.Errorf("renamed button row %v, want 0/2 against 2/2", r)
	}
	if r := rows["saves-normally"]; len(r) < 3 || r[1] != "2/2" || r[2] != "2/2" {
		t.Errorf("normal save row %v, want 2/2 against 2/2", r)
	}
	if !strings.Contains(out, "no evidence of a difference: 2 paired trials cannot show one; 6 are needed") {
		t.Errorf("compare printed\n%s\nwant it to say two trials cannot show a difference", out)
	}
	code, out, _ = run(t, "compare", ids[0], ids[1], "--json", "--data-dir", dir)
	var c compare.RateComparison
	if err := json.Unmarshal([]byte(out), &c); code != 0 || err != nil || len(c.Rows) != 2 || c.Rows[0].Attempt != "renamed-button-exact" || c.Rows[0].Significant {
		t.Errorf("compare --json: exit %d (%v), %+v: want the renamed button first, not significant", code, err, c.Rows)
	}
	if code, _, errOut := run(t, "run", "--lab", "booking", "--repeat", "0", "--data-dir", dir); code == 0 || !strings.Contains(errOut, "--repeat 0") {
		t.Errorf("--repeat 0: exit %d, %s; want refused", code, errOut)
	}
}
