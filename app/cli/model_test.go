package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"observatory/backend/planner/model/providertest"
	"observatory/internal/trackertest"
)

// The model planner from the command line: every model here is a scripted, protocol-faithful
// fake (providertest) on 127.0.0.1, spoken to through the real SDK clients, since no
// provider is reachable from the machines these tests run on.

// script is the replies of a model making calls in a's format, one tool call a reply, each
// given as its tool's name and its arguments.
func script(a providertest.API, calls ...[2]string) []providertest.Reply {
	out := make([]providertest.Reply, len(calls))
	for i, c := range calls {
		out[i] = a.Call(fmt.Sprintf("call_%d", i+1), c[0], c[1])
	}
	return out
}

// fileIssue is what a model filing the tracker's issue would call.
var fileIssue = [][2]string{
	{"fill", `{"target":{"label":"Title"},"value":"Broken link on the pricing page","reason":"The title asked for."}`},
	{"click", `{"target":{"role":"button","name":"Create issue"},"reason":"File it."}`},
	{"done", `{"reason":"The issue should be filed."}`},
}

// trackerFiles are the tracker's task files.
var trackerFiles = filepath.Join("..", "..", "backend", "taskfile", "testdata", "tracker")

// columnGap separates the attempts table's cells.
var columnGap = regexp.MustCompile(`\s{2,}`)

// tableOf is the attempts table at the start of out, up to its first empty line.
func tableOf(out string) string {
	table, _, _ := strings.Cut(out, "\n\n")
	return table
}

// rowOf reads the attempts table in out: the cells of slug's row by their column's heading.
func rowOf(t *testing.T, out, slug string) map[string]string {
	t.Helper()
	lines := strings.Split(tableOf(out), "\n")
	head := columnGap.Split(strings.TrimSpace(lines[0]), -1)
	for _, l := range lines[1:] {
		cells := columnGap.Split(strings.TrimSpace(l), -1)
		if cells[0] != slug {
			continue
		}
		if len(cells) != len(head) {
			t.Fatalf("row %q has %d cells under %d headings:\n%s", slug, len(cells), len(head), out)
		}
		row := map[string]string{}
		for i, h := range head {
			row[h] = cells[i]
		}
		return row
	}
	t.Fatalf("no row %q in:\n%s", slug, out)
	return nil
}

// checkRow fails t unless each heading of want has its cell in row.
func checkRow(t *testing.T, row, want map[string]string) {
	t.Helper()
	for h, w := range want {
		if row[h] != w {
			t.Errorf("%s is %q, want %q (row %v)", h, row[h], w, row)
		}
	}
}

// onlyRun is the ID of the one run in the data folder dir.
func onlyRun(t *testing.T, dir string) string {
	t.Helper()
	_, out, _ := run(t, "runs", "--json", "--data-dir", dir)
	var runs []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v, %s", err, out)
	}
	return runs[0].ID
}

// TestAModelPlansTheTrackerFromTheCommandLine runs the tracker's plan-less task file with
// --planner model against each provider's scripted server: the model files the issue, the
// gate proves it, and the table says what the model claimed beside the gate. With the
// model's server gone, the exported run verifies offline with the same table, and `rerun`
// files the issue again on a fresh tracker from the recorded actions alone. Against a
// tracker that refuses writes the page still says "Saved" and the model still says done:
// its claim is marked wrong, as the notice and Parallax's check are, and the gate says not
// done.
func TestAModelPlansTheTrackerFromTheCommandLine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	task := filepath.Join(trackerFiles, "file-issue-model.yaml")
	cases := []struct {
		name   string
		api    providertest.API
		refuse bool
		want   map[string]string
	}{
		{"openai", providertest.OpenAI, false, map[string]string{"STORED IN THE DATABASE": "yes", `"SAVED" NOTICE`: "done",
			"PARALLAX'S CHECK": "done", "AGENT'S CLAIM": "done", "COMPLETION GATE": "done", "TERMINAL": "completed"}},
		{"anthropic", providertest.Anthropic, false, map[string]string{"STORED IN THE DATABASE": "yes", `"SAVED" NOTICE`: "done",
			"PARALLAX'S CHECK": "done", "AGENT'S CLAIM": "done", "COMPLETION GATE": "done", "TERMINAL": "completed"}},
		{"openai, writes refused", providertest.OpenAI, true, map[string]string{"STORED IN THE DATABASE": "no", `"SAVED" NOTICE`: "done (wrong)",
			"PARALLAX'S CHECK": "done (wrong)", "AGENT'S CLAIM": "done (wrong)", "COMPLETION GATE": "not done", "TERMINAL": "failed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			startTracker(t, trackertest.Options{RefuseWrites: c.refuse})
			fake := providertest.New(t, c.api, script(c.api, fileIssue...)...)
			dir := t.TempDir()
			file := filepath.Join(dir, "model.json")
			code, out, errOut := runTracker(t, "run", task, "--planner", "model", "--model", c.api.Provider+":scripted",
				"--base-url", fake.BaseURL(), "--no-video", "--no-screenshots", "--export", file, "--data-dir", dir)
			if !ranThrough(code, errOut) {
				t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
			}
			checkRow(t, rowOf(t, out, "file-issue-model"), c.want)
			reqs := fake.Requests()
			if len(reqs) != len(fileIssue) {
				t.Fatalf("%d requests to the model, want %d", len(reqs), len(fileIssue))
			}
			for i, r := range reqs {
				if r.FirstUser() != `File an issue titled "Broken link on the pricing page".` {
					t.Errorf("request %d starts with %q, want the intent", i+1, r.FirstUser())
				}
				r.CheckPairs(t)
			}
			data, err := os.ReadFile(file)
			if err != nil || !strings.Contains(string(data), `"The title asked for."`) || !strings.Contains(string(data), `"grounded_seq"`) {
				t.Errorf("the run file lacks the model's turns (%v)", err)
			}
			fake.Close() // from here on its address answers nothing: no model is asked
			code, vout, verr := run(t, "verify", file)
			if code != 0 || strings.TrimSpace(tableOf(vout)) != strings.TrimSpace(tableOf(out)) {
				t.Errorf("verify: exit %d, %s\n%s\nwant the run's table:\n%s", code, verr, vout, tableOf(out))
			}
			if c.refuse || c.api.Name != "openai" {
				return
			}
			tracker := startTracker(t, trackertest.Options{})
			code, out, errOut = runTracker(t, "rerun", onlyRun(t, dir), "--task", task, "--no-video", "--data-dir", dir)
			if code != 0 {
				t.Fatalf("rerun: exit %d\n%s\n%s", code, out, errOut)
			}
			checkRow(t, rowOf(t, out, "file-issue-model"), map[string]string{"COMPLETION GATE": "done", "TERMINAL": "completed"})
			if issues, err := tracker.Issues(t.Context()); err != nil || len(issues) != 1 {
				t.Errorf("the rerun filed %v (%v), want the one issue", issues, err)
			}
		})
	}
}

// TestModelLimitsFromTheCommandLine gives the model planner each of its limits from the
// command line: a money budget at the prices given, a token budget, and a time limit on a
// persistent run, which refuses the model's done and ends exhausted, not completed, keeping
// the booking it made. Each names its limit, and the turns of the planning that ended the
// attempt reach the run file.
func TestModelLimitsFromTheCommandLine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	book := [][2]string{
		{"click", `{"target":{"role":"button","name":"Reserve slot"},"reason":"Open the dialog."}`},
		{"fill", `{"target":{"role":"textbox","name":"Reservation title"},"value":"Spectral scan","reason":"The title asked for."}`},
		{"select", `{"target":{"role":"combobox","name":"Room"},"value":"North lab","reason":"The room asked for."}`},
		{"click", `{"target":{"role":"button","name":"Save reservation"},"reason":"Save it."}`},
	}
	done := [2]string{"done", `{"reason":"It is booked."}`}
	// Every scripted reply reports 120 input and 30 output tokens: at $2 and $8 a million,
	// $0.00048 a turn.
	cases := []struct {
		name  string
		calls [][2]string
		flags []string
		steps int
		// limit names the limit in the attempt's reason and in its last turn; landed is whether
		// the booking was saved, which the reason then says too.
		limit  string
		landed bool
	}{
		{"money budget", book, []string{"--price-in", "2", "--price-out", "8", "--money-budget", "0.0006"}, 2,
			"the planner could not propose step 3: $0.0010 of $0.0006 spent: money budget", false},
		{"token budget", book, []string{"--token-budget", "400"}, 3,
			"the planner could not propose step 4: 450 of 400 tokens spent: token budget", false},
		{"persistent, until the time limit", append(book, done, done, done, done), []string{"--persistent", "--time-limit", "12s"}, 4,
			"the planner could not propose step 5: the 12s time limit is up: time limit", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake := providertest.New(t, providertest.OpenAI, script(providertest.OpenAI, c.calls...)...)
			dir := t.TempDir()
			file := filepath.Join(dir, "run.json")
			args := append([]string{"run", "--attempt", "saves-normally", "--planner", "model", "--model", "openai:scripted",
				"--base-url", fake.BaseURL(), "--no-video", "--no-screenshots", "--export", file, "--data-dir", dir}, c.flags...)
			code, out, errOut := run(t, args...)
			if !ranThrough(code, errOut) {
				t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
			}
			line := "saves-normally: exhausted: " + c.limit + ": planning limit reached"
			if c.landed {
				line = "the requested effect landed all the same"
			}
			if !strings.Contains(out, "saves-normally: exhausted: "+c.limit) || !strings.Contains(out, line) {
				t.Errorf("the attempt's line does not say %q and %q:\n%s", c.limit, line, out)
			}
			var f struct {
				Attempts []struct {
					Steps      []json.RawMessage `json:"steps"`
					ModelTurns []struct {
						Error string `json:"error"`
						Calls []struct {
							Name, Outcome string
						} `json:"calls"`
					} `json:"model_turns"`
					Verdicts struct {
						Truth struct {
							Done bool `json:"done"`
						} `json:"truth"`
					} `json:"verdicts"`
				} `json:"attempts"`
			}
			data, err := os.ReadFile(file)
			if err != nil || json.Unmarshal(data, &f) != nil || len(f.Attempts) != 1 {
				t.Fatalf("the run file: %v", err)
			}
			a := f.Attempts[0]
			if len(a.Steps) != c.steps || a.Verdicts.Truth.Done != c.landed {
				t.Errorf("%d steps kept, booking saved %v; want %d, %v", len(a.Steps), a.Verdicts.Truth.Done, c.steps, c.landed)
			}
			if n := len(a.ModelTurns); n == 0 || !strings.Contains(c.limit, strings.TrimSuffix(a.ModelTurns[n-1].Error, ": planning limit reached")) {
				t.Errorf("the run file's turns that led to no step are %+v, want them to end with the limit", a.ModelTurns)
			}
			if c.landed && (len(a.ModelTurns) < 2 || a.ModelTurns[0].Calls[0].Name != "done" || a.ModelTurns[0].Calls[0].Outcome != "refused") {
				t.Errorf("the persistent run's refused done is not recorded: %+v", a.ModelTurns)
			}
		})
	}
}

// TestAModelNamesAnAmbiguousTargetAgain runs the close-issue task, planned by a scripted
// model whose first click names "Close", which two buttons show: the step is recorded as not
// run, the model is told how many matched and names the one button, and the attempt
// completes with only that issue closed. Then the run is rerun, with the model's server gone,
// against a tracker with two issues of that title: the rerun leaves out the click the model
// named again, but the button it then named no longer names one element, so the rerun stops
// there, naming the step, and touches neither issue.
func TestAModelNamesAnAmbiguousTargetAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	task := filepath.Join(trackerFiles, "close-issue-model.yaml")
	tracker := startTracker(t, trackertest.Options{Seed: []string{"Typo in the footer", "Slow search"}})
	fake := providertest.New(t, providertest.OpenAI, script(providertest.OpenAI,
		[2]string{"click", `{"target":{"text":"Close"},"reason":"Close the issue."}`},
		[2]string{"click", `{"target":{"role":"button","name":"Close Typo in the footer"},"reason":"The one for the issue asked for."}`},
		[2]string{"done", `{"reason":"It is closed."}`},
	)...)
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	code, out, errOut := runTracker(t, "run", task, "--planner", "model", "--model", "openai:scripted",
		"--base-url", fake.BaseURL(), "--no-video", "--no-screenshots", "--export", file, "--data-dir", dir)
	if code != 0 || !strings.Contains(out, "close-issue-model: completed: ") {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	reqs := fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests to the model, want 3", len(reqs))
	}
	var res *providertest.Item
	for i, it := range reqs[1].Items {
		if it.Kind == "result" && it.ID == "call_1" {
			res = &reqs[1].Items[i]
		}
	}
	if res == nil || !res.IsError || !strings.Contains(res.Text, `Not run: text "Close": several elements match the target (2 of them). Name exactly one element`) {
		t.Errorf("the ambiguous click went back to the model as %+v", res)
	}
	issues, err := tracker.Issues(t.Context())
	if err != nil || len(issues) != 2 || issues[0].State != "closed" || issues[1].State != "open" {
		t.Errorf("the issues are %+v (%v), want only the first closed", issues, err)
	}
	var f struct {
		Attempts []struct {
			Steps []struct {
				Unresolved bool `json:"unresolved"`
			} `json:"steps"`
		} `json:"attempts"`
	}
	data, err := os.ReadFile(file)
	if err != nil || json.Unmarshal(data, &f) != nil || len(f.Attempts) != 1 || len(f.Attempts[0].Steps) != 3 || !f.Attempts[0].Steps[0].Unresolved {
		t.Errorf("the run file's steps: %s (%v)", data, err)
	}

	fake.Close()
	twice := startTracker(t, trackertest.Options{Seed: []string{"Typo in the footer", "Typo in the footer"}})
	code, out, errOut = runTracker(t, "rerun", onlyRun(t, dir), "--task", task, "--no-video", "--data-dir", dir)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s\n%s", code, out, errOut)
	}
	want := `close-issue-model: rejected: step 1 (click button[Close Typo in the footer]): button[Close Typo in the footer]: several elements match the target (2 of them); the executor never picks the first`
	if !strings.Contains(out, want) {
		t.Errorf("the rerun does not stop naming the step:\n%s\nwant %q", out, want)
	}
	issues, err = twice.Issues(t.Context())
	if err != nil || len(issues) != 2 || issues[0].State != "open" || issues[1].State != "open" {
		t.Errorf("after the stopped rerun the issues are %+v (%v), want both open", issues, err)
	}
}
