package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"observatory/backend/labs/booking"
)

// run executes the command line with args and returns its exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Execute(context.Background(), Env{Stdout: &out, Stderr: &errOut, Assets: fstest.MapFS{}}, args)
	return code, out.String(), errOut.String()
}

// ranThrough reports whether run's exit status and standard error say the run was made and
// reported: 0, or statusIncomplete with no error but the count of attempts that did not complete (the
// attempts each test runs are checked by their rows; TestRunExitStatusSaysWhetherEveryAttemptCompleted
// checks the status itself).
func ranThrough(code int, errOut string) bool {
	errs := strings.Count(errOut, "Error: ")
	switch code {
	case 0:
		return errs == 0
	case statusIncomplete:
		return errs == 1 && regexp.MustCompile(`(?m)^Error: \d+ of \d+ attempts did not complete \(`).MatchString(errOut)
	}
	return false
}

func TestCommandsSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	modelTask := filepath.Join(dir, "model-task.yaml")
	if err := os.WriteFile(modelTask, []byte(`schema: observatory.task/v1
name: model-task
intent: Book North lab.
lab: booking
start_url: /
planner: {models: [{provider: openai, model: gpt-4.1-mini, price_in_per_mtok: 0.4, price_out_per_mtok: 1.6}]}
success: [{id: saved, http: {url: /api/state, expr: "size(body.records) > 0"}}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join("..", "..", "backend", "runfile", "testdata", "bad")
	tests := []struct {
		name string
		args []string
		code int
		out  string // stdout must contain it (empty: stdout must be empty)
		err  string // stderr must contain it
	}{
		{"an empty history", []string{"runs", "--data-dir", dir}, 0, "no runs yet", ""},
		{"an empty history as JSON", []string{"runs", "--json", "--data-dir", dir}, 0, "[]", ""},
		{"an unknown run", []string{"show", "nope", "--data-dir", dir}, 1, "", "nope"},
		{"export of an unknown run", []string{"export", "nope", "-o", filepath.Join(dir, "x.json"), "--data-dir", dir}, 1, "", "nope"},
		{"an unknown lab", []string{"run", "--lab", "nope", "--data-dir", dir}, 1, "", `no lab called "nope"`},
		{"an unknown attempt, with --json", []string{"run", "--attempt", "nope", "--json", "--data-dir", dir}, 1, "", `no attempt "nope"`},
		{"a bad policy", []string{"run", "--wait", "sometimes", "--data-dir", dir}, 1, "", `wait policy "sometimes"`},
		{"serve on every interface", []string{"serve", "--addr", "0.0.0.0:0", "--data-dir", dir}, 1, "", "loopback only"},
		{"mcp over HTTP on every interface", []string{"mcp", "--http", "0.0.0.0:0", "--data-dir", dir}, 1, "", "loopback only"},
		{"mcp with an unknown attempt", []string{"mcp", "--attempt", "nope", "--data-dir", dir}, 1, "", `no attempt "nope"`},
		{"mcp with a bad approval answer", []string{"mcp", "--approve", "sometimes", "--data-dir", dir}, 1, "", `--approve "sometimes"`},
		{"a lab on a wildcard", []string{"run", "--lab-host", "0.0.0.0", "--data-dir", dir}, 1, "", "wildcard a browser cannot be sent to"},
		{"serve labs on a wildcard", []string{"serve", "--addr", "127.0.0.1:0", "--lab-host", "::", "--data-dir", dir}, 1, "", "wildcard a browser cannot be sent to"},
		{"verify a file that is not JSON", []string{"verify", filepath.Join(bad, "not-json.json")}, 1, "", "not-json"},
		{"verify an illegal event order", []string{"verify", filepath.Join(bad, "unknown-version.json")}, 1, "", "unknown schema version"},
		{"a shard that is not K/N", []string{"run", "--shard", "2", "--data-dir", dir}, 1, "", `shard "2": want K/N`},
		{"a shard past N", []string{"run", "--shard", "3/2", "--data-dir", dir}, 1, "", "want 1 <= K <= N"},
		{"an export into a missing folder", []string{"run", "--export", filepath.Join(dir, "nowhere", "run.json"), "--data-dir", dir}, 1, "", "cannot write into"},
		{"a model planner with no model", []string{"run", "--planner", "model", "--data-dir", dir}, 1, "", "name one with --model"},
		{"a model for a scripted planner", []string{"run", "--model", "openai:gpt-4.1-mini", "--data-dir", dir}, 1, "", "add --planner model"},
		{"a key from two places", []string{"run", "--planner", "model", "--model", "openai:gpt-4.1-mini", "--api-key-env", "OPENAI_API_KEY", "--api-key-keyring", "openai", "--data-dir", dir}, 1, "", "give one"},
		{"a price for the task file's models", []string{"run", modelTask, "--price-in", "2", "--data-dir", dir}, 1, "", "the task file's models carry their own"},
		{"a negative price", []string{"run", "--planner", "model", "--model", "openai:x", "--base-url", "http://127.0.0.1:1/v1", "--price-out", "-1", "--data-dir", dir}, 1, "", "prices must not be negative"},
		{"a model without its key", []string{"run", "--planner", "model", "--model", "openai:gpt-4.1-mini", "--api-key-env", "OBSERVATORY_NO_SUCH_KEY", "--data-dir", dir}, 1, "", "OBSERVATORY_NO_SUCH_KEY"},
		{"a browser that is not there", []string{"run", "--attempt", "saves-normally", "--browser", "/nonexistent/chrome", "--no-video", "--data-dir", t.TempDir()}, 1, "",
			"or run `observatory install --with-browser` to download Playwright's Chromium"},
		{"a rerun of an unknown run", []string{"rerun", "nope", "--data-dir", dir}, 1, "", "nope"},
		{"merge without an output", []string{"merge", filepath.Join(bad, "not-json.json")}, 1, "", "-o FILE"},
		{"a shard index from an unset variable", []string{"run", "--shard-index-env", "OBSERVATORY_TEST_UNSET_INDEX", "--shard-total", "4", "--data-dir", dir}, 1, "", "OBSERVATORY_TEST_UNSET_INDEX: the variable is not set"},
		{"a shard index without a total", []string{"run", "--shard-index-env", "HOME", "--data-dir", dir}, 1, "", "go together"},
		{"a shard both ways", []string{"run", "--shard", "1/2", "--shard-index-env", "HOME", "--shard-total", "2", "--data-dir", dir}, 1, "", "not both"},
		{"a rate past 1", []string{"run", "--min-rate", "1.5", "--data-dir", dir}, 1, "", "--min-rate 1.5: want a rate from 0 to 1"},
		{"an unknown --fail-on", []string{"run", "--fail-on", "slow", "--data-dir", dir}, 1, "", `--fail-on "slow": want flaky`},
		{"--shard-exit written without a shard file", []string{"run", "--shard", "1/2", "--shard-exit", "written", "--data-dir", dir}, 1, "", "give --shard (or --shard-index-env) and --export"},
		{"a report with no file", []string{"run", "--report", "junit", "--data-dir", dir}, 1, "", "want junit=FILE"},
		{"import stores nothing when refused", []string{"import", filepath.Join(bad, "too-many-events.json"), "--data-dir", dir}, 1, "", "events"},
	}
	for _, tt := range tests {
		code, out, errOut := run(t, tt.args...)
		if code != tt.code || (tt.out == "" && out != "") || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q\nwant exit %d, stdout with %q, stderr with %q", tt.name, code, out, errOut, tt.code, tt.out, tt.err)
		}
	}
	if _, out, _ := run(t, "runs", "--json", "--data-dir", dir); strings.TrimSpace(out) != "[]" {
		t.Errorf("a refused import was stored: %s", out)
	}
}

// TestRunJSONPrintsOnlyJSON runs one attempt in real Chromium and checks the --json contract:
// standard output is a JSON array of one object per attempt and nothing else; progress goes
// to standard error; the run file it exports verifies.
func TestRunJSONPrintsOnlyJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	code, out, errOut := run(t, "run", "--attempt", "renamed-button-exact", "--json", "--no-video", "--no-screenshots",
		"--export", file, "--data-dir", dir)
	if !ranThrough(code, errOut) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("stdout is not only JSON (%v):\n%s", err, out)
	}
	want := map[string]any{"attempt": "renamed-button-exact", "truth": false,
		"signals": map[string]any{"notice": false, "parallax": false}, "gate": false, "terminal": "failed"}
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1", len(rows))
	}
	for k, v := range want {
		if !reflect.DeepEqual(rows[0][k], v) {
			t.Errorf("%s = %v, want %v", k, rows[0][k], v)
		}
	}
	if !strings.Contains(errOut, "[1/1] renamed-button-exact") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run(t, "verify", file); code != 0 || !strings.Contains(out, "renamed-button-exact") {
		t.Errorf("verify of a genuine run: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestRunJSONPrintsTheResultWhenTheExportFails runs one attempt whose export cannot be
// written (its path is a folder): the result is still printed as JSON, and the failure goes
// to standard error and the exit code.
func TestRunJSONPrintsTheResultWhenTheExportFails(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	dir := t.TempDir()
	folder := filepath.Join(dir, "run.json")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "run", "--attempt", "saves-normally", "--json", "--no-video", "--no-screenshots",
		"--export", folder, "--data-dir", dir)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 || rows[0]["attempt"] != "saves-normally" {
		t.Fatalf("stdout holds no result (%v):\n%s\nstderr: %s", err, out, errOut)
	}
	if code == 0 || !strings.Contains(errOut, folder) {
		t.Errorf("exit %d, stderr %q: want the failed export said and a non-zero exit", code, errOut)
	}
}

// TestShardsRunApartAndMerge runs four booking attempts as two shards in real Chromium, as two
// CI machines would, merges their run files and verifies the result: the attempts of both,
// in the lab's order. Merging a shard with itself is refused.
func TestShardsRunApartAndMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	dir := t.TempDir()
	attempts := []string{"--attempt", "saves-normally", "--attempt", "wrong-room", "--attempt", "save-refused", "--attempt", "renamed-button-exact"}
	for _, k := range []string{"1", "2"} {
		args := append([]string{"run", "--shard", k + "/2", "--parallel", "2", "--no-video", "--no-screenshots", "--json",
			"--export", filepath.Join(dir, "shard"+k+".json"), "--data-dir", filepath.Join(dir, "machine"+k)}, attempts...)
		if code, _, errOut := run(t, args...); !ranThrough(code, errOut) {
			t.Fatalf("shard %s/2: exit %d: %s", k, code, errOut)
		}
	}
	merged := filepath.Join(dir, "run.json")
	// The merge owns the exit status: wrong-room and the others did not complete.
	if code, _, errOut := run(t, "merge", filepath.Join(dir, "shard1.json"), filepath.Join(dir, "shard2.json"), "-o", merged); !ranThrough(code, errOut) || code != statusIncomplete {
		t.Fatalf("merge: exit %d, want %d: %s", code, statusIncomplete, errOut)
	}
	code, out, errOut := run(t, "verify", "--json", merged)
	if code != 0 {
		t.Fatalf("verify the merged file: exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r["attempt"].(string)+" "+r["terminal"].(string))
	}
	want := []string{"saves-normally completed", "wrong-room failed", "save-refused rejected", "renamed-button-exact failed"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged attempts %v, want %v", got, want)
	}
	if code, _, errOut := run(t, "merge", filepath.Join(dir, "shard1.json"), filepath.Join(dir, "shard1.json"), "-o", merged); code == 0 || !strings.Contains(errOut, "is in both") {
		t.Errorf("merging a shard with itself: exit %d: %s", code, errOut)
	}
}

// bookingTaskFile is the booking lab's own task written as a task file.
var bookingTaskFile = filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml")

// TestTheBookingLabAndItsTaskFilePrintTheSameTable runs the booking lab's eight attempts in
// real Chromium twice, two at a time: `run --lab booking` (the lab's Go task) and `run
// backend/labs/booking/task.yaml` (whose gate reads the lab's JSON over HTTP). The two printed
// tables are the same, row by row, header and footer included, and each row is the seed's.
func TestTheBookingLabAndItsTaskFilePrintTheSameTable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	// --deadline only bounds the condition waits, whose saves take 50 to 500 ms: no row
	// depends on it, but a loaded machine's slow polls can no longer end one early.
	flags := []string{"--parallel", "2", "--deadline", "4000", "--no-video", "--no-screenshots"}
	var tables [][]string
	for _, task := range [][]string{{"--lab", "booking"}, {bookingTaskFile}} {
		args := append(append([]string{"run"}, task...), append(flags, "--data-dir", t.TempDir())...)
		code, out, errOut := run(t, args...)
		if !ranThrough(code, errOut) {
			t.Fatalf("run %v: exit %d: %s", task, code, errOut)
		}
		table := tableLines(out)
		if len(table) != 10 {
			t.Fatalf("run %v printed no table of eight rows:\n%s", task, out)
		}
		for _, spec := range booking.New().Attempts() {
			if got, want := strings.Join(tableRow(out, spec.Slug), " | "), seedRow(spec.Slug); got != want {
				t.Errorf("run %v: %s\nwant the seed's %s", task, got, want)
			}
		}
		tables = append(tables, table)
	}
	for i := range tables[0] {
		if tables[0][i] != tables[1][i] {
			t.Errorf("line %d of the tables differs:\n--lab booking: %s\ntask.yaml:     %s", i+1, tables[0][i], tables[1][i])
		}
	}
}

// tableLines are the lines of the attempts table in a run's printed output, from its header
// to its WRONG footer.
func tableLines(out string) []string {
	var lines []string
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, " \n")
		if strings.HasPrefix(line, "ATTEMPT ") || len(lines) > 0 {
			lines = append(lines, line)
		}
		if strings.HasPrefix(line, "WRONG ") {
			break
		}
	}
	return lines
}

// seedRow is the seed table's row for a booking attempt as the attempts table prints it.
func seedRow(slug string) string {
	w := booking.SeedTable[slug]
	cell := func(done bool) string {
		c := "not done"
		if done {
			c = "done"
		}
		if done != w.Saved {
			c += " (wrong)"
		}
		return c
	}
	return strings.Join([]string{slug, yesNo(w.Saved), cell(w.Notice), cell(w.Parallax), cell(w.Gate), string(w.Terminal)}, " | ")
}

// TestExportWritesAnHTMLReport imports a run file and exports it to a .html: a report that
// carries no script and gives each of its two attempts a section.
func TestExportWritesAnHTMLReport(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "import", filepath.Join("..", "..", "backend", "runfile", "testdata", "v1-booking.json"), "--data-dir", dir)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	id := strings.TrimSpace(out[strings.LastIndex(out, " ")+1:])
	path := filepath.Join(dir, "report.html")
	if code, _, errOut := run(t, "export", id, "-o", path, "--data-dir", dir); code != 0 || !strings.Contains(errOut, "wrote "+path) {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	if !strings.HasPrefix(html, "<!doctype html>") || strings.Contains(strings.ToLower(html), "<script") ||
		!strings.Contains(html, "Content-Security-Policy") || strings.Count(html, `<section id="attempt-`) != 2 {
		t.Errorf("the report is not a self-contained, script-free page:\n%.600s", html)
	}
}

func TestVersion(t *testing.T) {
	code, out, errOut := run(t, "version")
	if code != 0 || !strings.HasPrefix(out, "observatory ") || !strings.Contains(out, "\ncommit  ") || !strings.Contains(out, "\nbuilt   ") {
		t.Errorf("version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = run(t, "version", "--json")
	var info map[string]string
	if err := json.Unmarshal([]byte(out), &info); code != 0 || err != nil || info["version"] == "" || info["commit"] == "" || info["date"] == "" {
		t.Errorf("version --json: exit %d, stdout %q (%v), stderr %q", code, out, err, errOut)
	}
}

// TestRerunRepeatsTheRecordedActions runs one attempt in real Chromium, then reruns its
// recorded actions as a scripted plan: the same terminal state, from the actions alone.
func TestRerunRepeatsTheRecordedActions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	dir := t.TempDir()
	if code, _, errOut := run(t, "run", "--attempt", "saves-normally", "--no-video", "--no-screenshots", "--data-dir", dir); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	_, out, _ := run(t, "runs", "--json", "--data-dir", dir)
	var runs []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v %s", err, out)
	}
	code, out, errOut := run(t, "rerun", runs[0].ID, "--no-video", "--data-dir", dir)
	if code != 0 || !strings.Contains(out, "saves-normally: completed") {
		t.Errorf("rerun: exit %d\n%s\n%s", code, out, errOut)
	}
}
