package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/cireport/cireporttest"
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
		if !ranThrough(code, errOut) {
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
	junit := filepath.Join(dir, "compare.xml")
	code, out, errOut := run(t, "compare", ids[0], ids[1], "--data-dir", dir, "--report", "junit="+junit)
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s%s", code, out, errOut)
	}
	// B's run, reported against A: the renamed button's baseline completed none of its two
	// trials, and two trials show no regression, so nothing fails.
	if b, err := os.ReadFile(junit); err != nil || strings.Contains(string(b), "<failure") ||
		!strings.Contains(string(b), `<property name="baseline_completed" value="0"></property>`) || strings.Count(string(b), `<property name="comparison"`) != 2 {
		t.Errorf("compare --report junit (%v): want both attempts compared with A, none failed:\n%s", err, b)
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

// TestSuiteRun runs a suite of the booking and checkout labs' task files (two of booking's
// attempts, one of checkout's) with 3 trials each, as the suite file says, and checks the
// estimates it prints against a table counted here from the stored trials, with the Wilson
// intervals of that table worked out apart (Python's statistics.NormalDist). Every run records
// the suite run's id, and a second suite run compares with the first, task by task.
func TestSuiteRun(t *testing.T) {
	browsertest.Ready(t)
	dir, data := t.TempDir(), t.TempDir()
	for name, from := range map[string]string{"booking.yaml": "../../backend/labs/booking/task.yaml", "checkout.yaml": "../../backend/labs/checkout/task.yaml"} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	suite := filepath.Join(dir, "smoke.yaml")
	doc := "schema: observatory.suite/v1\nrepeat: 3\ntasks:\n  - file: booking.yaml\n    attempts: [saves-normally, wrong-room]\n  - glob: 'check*.yaml'\n    attempts: [pays-normally]\n"
	if err := os.WriteFile(suite, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run(t, "task", "check", suite); code != 0 || !strings.Contains(out, "suite smoke, 2 tasks, 3 trials of each attempt") {
		t.Errorf("task check: exit %d\n%s%s", code, out, errOut)
	}
	ctrf := filepath.Join(dir, "ctrf.json")
	code, out, errOut := run(t, "run", suite, "--parallel", "2", "--approve", "hold", "--no-video", "--no-screenshots", "--json", "--data-dir", data,
		"--report", "ctrf="+ctrf)
	if !ranThrough(code, errOut) {
		t.Fatalf("run suite: exit %d\n%s%s", code, out, errOut)
	}
	// The suite's CTRF report: valid, one test per task's attempt, each task a suite.
	b, err := os.ReadFile(ctrf)
	if err != nil {
		t.Fatal(err)
	}
	cireporttest.ValidateCTRF(t, b)
	for _, want := range []string{`"name": "booking › wrong-room"`, `"name": "checkout › pays-normally"`, `"tests": 3,`, `"failed": 1,`, `"suites": 2,`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the suite's CTRF lacks %s:\n%s", want, b)
		}
	}
	var got suiteJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("run suite --json: %v\n%s", err, out)
	}
	if len(got.Runs) != 2 || got.Runs[0].Task != "booking" || got.Runs[1].Task != "checkout" || len(got.Runs[0].Trials) != 6 || len(got.Runs[1].Trials) != 3 {
		t.Fatalf("runs %+v: want booking's 6 trials, then checkout's 3", got.Runs)
	}
	// The table, counted from the stored runs (observatory show --json reads them back).
	table := map[string][2]int{}
	for _, r := range got.Runs {
		code, out, errOut := run(t, "show", r.ID, "--json", "--data-dir", data)
		var stored agent.Run
		if err := json.Unmarshal([]byte(out), &stored); code != 0 || err != nil {
			t.Fatalf("show %s: exit %d (%v)\n%s", r.ID, code, err, errOut)
		}
		if !strings.HasPrefix(got.SuiteRun, "smoke@") || stored.SuiteRun != got.SuiteRun {
			t.Errorf("run %s records suite run %q, the suite printed %q; want the same smoke@…", r.ID, stored.SuiteRun, got.SuiteRun)
		}
		for _, a := range stored.Attempts {
			c := table[stored.Task+"/"+a.Base()]
			c[1]++
			if a.Terminal == agent.Completed {
				c[0]++
			}
			table[stored.Task+"/"+a.Base()] = c
		}
	}
	want := map[string][2]int{"booking/saves-normally": {3, 3}, "booking/wrong-room": {0, 3}, "checkout/pays-normally": {3, 3}}
	wilson := map[[2]int][2]float64{{3, 3}: {0.4385029682, 1}, {0, 3}: {0, 0.5614970318}}
	for key, w := range want {
		if table[key] != w {
			t.Errorf("stored %s: %d of %d completed, want %d of %d", key, table[key][0], table[key][1], w[0], w[1])
		}
	}
	for _, s := range got.Estimates.Slices {
		counted := table[s.Key]
		iv := wilson[counted]
		if s.Completed != counted[0] || s.Attempts != counted[1] || math.Abs(s.Interval.Lo-iv[0]) > 1e-9 || math.Abs(s.Interval.Hi-iv[1]) > 1e-9 {
			t.Errorf("estimate %s: %d of %d, %v; the stored trials say %d of %d, [%v, %v]", s.Key, s.Completed, s.Attempts, s.Interval, counted[0], counted[1], iv[0], iv[1])
		}
	}
	if len(got.Estimates.Slices) != 3 || got.Estimates.Overall.Attempts != 9 || got.Estimates.K != 3 {
		t.Errorf("estimates %+v: want 3 attempts, 9 trials, k 3", got.Estimates)
	}
	if code, _, errOut := run(t, "run", suite, "--attempt", "saves-normally", "--data-dir", data); code == 0 || !strings.Contains(errOut, "tasks[].attempts") {
		t.Errorf("run suite --attempt: exit %d, %s; want refused", code, errOut)
	}

	code, out, errOut = run(t, "run", suite, "--parallel", "2", "--approve", "hold", "--no-video", "--no-screenshots", "--json", "--data-dir", data)
	var again suiteJSON
	if err := json.Unmarshal([]byte(out), &again); !ranThrough(code, errOut) || err != nil || again.SuiteRun == got.SuiteRun {
		t.Fatalf("run suite again: exit %d (%v), suite run %q\n%s", code, err, again.SuiteRun, errOut)
	}
	code, out, errOut = run(t, "compare", got.SuiteRun, again.SuiteRun, "--data-dir", data)
	if code != 0 || !strings.Contains(out, "A: suite run "+got.SuiteRun+" (smoke)") || !strings.Contains(out, "TASK/ATTEMPT") {
		t.Fatalf("compare the suite runs: exit %d\n%s%s", code, out, errOut)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 3 {
			rows[f[0]] = f
		}
	}
	for key, w := range map[string]string{"booking/saves-normally": "3/3", "booking/wrong-room": "0/3", "checkout/pays-normally": "3/3", "overall": "6/9"} {
		if r := rows[key]; len(r) < 3 || r[1] != w || r[2] != w {
			t.Errorf("compare row %s: %v, want %s in both", key, r, w)
		}
	}
	if !strings.Contains(out, "no evidence of a difference") || strings.Contains(out, "completes more often") {
		t.Errorf("compare of two suite runs made the same way printed\n%s\nwant no evidence of a difference", out)
	}
}
