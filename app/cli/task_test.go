package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTaskNewAndCheck writes the starter, checks it and the booking lab's task file, and
// checks that a bad expression is refused with its path and exit code 1.
func TestTaskNewAndCheck(t *testing.T) {
	dir := t.TempDir()
	starter := filepath.Join(dir, "task.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	booking := filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml")
	steps := []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"new to a file", []string{"task", "new", "-o", starter}, 0, "", "wrote " + starter},
		{"new never overwrites", []string{"task", "new", "-o", starter}, 1, "", "already exists"},
		{"new is never JSON", []string{"task", "new", "-o", filepath.Join(dir, "task.json")}, 1, "", "the starter is YAML, with comments; name the file .yaml"},
		{"check the starter", []string{"task", "check", starter}, 0, "OK " + starter + ": task my-task\n  attempts (2): default, fixed-wait", ""},
		{"check the booking task", []string{"task", "check", booking}, 0, "task booking on the booking lab\n  attempts (8): saves-normally,", ""},
		{"check a bad expression", []string{"task", "check", bad}, 1, "", bad + ": at success[0].http.expr: undeclared reference to 'bdy'"},
		{"check a missing file", []string{"task", "check", filepath.Join(dir, "none.yaml")}, 1, "", "no such file"},
	}
	for _, st := range steps {
		if st.name == "check a bad expression" {
			b, err := os.ReadFile(starter)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bad, []byte(strings.Replace(string(b), "expr: status == 200", "expr: bdy == 200", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, out, errOut := run(t, st.args...)
		if code != st.code || !strings.Contains(out, st.out) || !strings.Contains(errOut, st.err) || (st.out == "" && out != "") {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q\nwant exit %d, stdout with %q, stderr with %q", st.name, code, out, errOut, st.code, st.out, st.err)
		}
	}
	if code, out, _ := run(t, "task", "new"); code != 0 || !strings.HasPrefix(out, "# An Observatory task file") {
		t.Errorf("task new to stdout: exit %d, %q", code, out[:min(len(out), 60)])
	}
}

// TestTaskCheckAndRunAgreeOnUnsetVariables checks a task file whose condition sends a header
// read from an unset environment variable the user allowed: task check refuses it as run
// does, naming the variable, and accepts it once the variable is set.
func TestTaskCheckAndRunAgreeOnUnsetVariables(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "task.yaml")
	if err := os.WriteFile(path, []byte(`schema: observatory.task/v1
name: header-task
intent: Look at the site.
base_url: http://127.0.0.1:1/
start_url: /
plan: [{description: Look, action: verify}]
success: [{id: up, http: {url: /api/state, headers: {Authorization: "Bearer ${OBSERVATORY_TEST_TOKEN}"}, expr: status == 200}}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	const why = "reads environment variable OBSERVATORY_TEST_TOKEN, which is not set"
	allow := []string{"--allow-env", "OBSERVATORY_TEST_TOKEN"}
	for _, args := range [][]string{append([]string{"task", "check", path}, allow...), append([]string{"run", path, "--no-video", "--no-screenshots", "--data-dir", dir}, allow...)} {
		if code, out, errOut := run(t, args...); code != 1 || !strings.Contains(errOut, why) {
			t.Errorf("%s with the variable unset: exit %d\nstdout %q\nstderr %q\nwant exit 1 and %q", args[0], code, out, errOut, why)
		}
	}
	t.Setenv("OBSERVATORY_TEST_TOKEN", "t0ken")
	if code, out, errOut := run(t, append([]string{"task", "check", path}, allow...)...); code != 0 || !strings.HasPrefix(out, "OK ") || strings.Contains(out+errOut, "t0ken") {
		t.Errorf("task check with the variable set: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
}
