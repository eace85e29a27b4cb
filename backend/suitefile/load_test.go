package suitefile_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"observatory/backend/labs"
	"observatory/backend/suitefile"
	"observatory/backend/taskfile"
)

// folder is a temporary folder holding the booking and checkout labs' task files.
func folder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, from := range map[string]string{"booking.yaml": "../labs/booking/task.yaml", "checkout.yaml": "../labs/checkout/task.yaml"} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// schema compiles docs/suite.schema.json, whose budgets refer to the task file's schema.
func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	for _, name := range []string{"task.schema.json", "suite.schema.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("https://observatory.local/schema/"+name, doc); err != nil {
			t.Fatal(err)
		}
	}
	sch, err := c.Compile("https://observatory.local/schema/suite.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validate(sch *jsonschema.Schema, doc string) error {
	var v any
	if err := yaml.Unmarshal([]byte(doc), &v); err != nil {
		return err
	}
	b, _ := json.Marshal(v)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

const good = `schema: observatory.suite/v1
name: smoke
repeat: 3
tasks:
  - file: booking.yaml
    attempts: [saves-normally, wrong-room]
  - glob: check*.yaml
budgets:
  attempt: {steps: 20}
  run: {wall_clock_ms: 600000}
`

func TestSuiteFileLoads(t *testing.T) {
	dir := folder(t)
	path := filepath.Join(dir, "smoke.suite.yaml")
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if !suitefile.IsSuite(path) || !suitefile.IsSuite(dir) || suitefile.IsSuite(filepath.Join(dir, "booking.yaml")) {
		t.Error("IsSuite: want the suite file and the folder, not a task file")
	}
	s, err := suitefile.Load(path, taskfile.Options{Labs: labs.ForTaskFiles})
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "smoke" || s.Repeat != 3 || len(s.Tasks) != 2 {
		t.Fatalf("suite %+v: want smoke, 3 trials, 2 tasks", s)
	}
	if b := s.Tasks[0]; b.Task.Task().Name != "booking" || strings.Join(b.Attempts, ",") != "saves-normally,wrong-room" {
		t.Errorf("first task %s %v: want booking's two attempts", b.Task.Task().Name, b.Attempts)
	}
	if c := s.Tasks[1]; c.Task.Task().Name != "checkout" || len(c.Attempts) != 0 {
		t.Errorf("second task %s %v: want checkout, all attempts", c.Task.Task().Name, c.Attempts)
	}
	if s.AttemptBudgets == nil || s.AttemptBudgets.Steps != 20 || s.RunBudgets.WallClockMS != 600000 {
		t.Errorf("budgets %+v, %+v: want 20 steps an attempt, 10 minutes a run", s.AttemptBudgets, s.RunBudgets)
	}
	if err := validate(schema(t), good); err != nil {
		t.Errorf("the schema refuses the good suite: %v", err)
	}
	f, err := suitefile.Load(dir, taskfile.Options{Labs: labs.ForTaskFiles}) // the folder: its task files, the suite file itself aside
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != filepath.Base(dir) || f.Repeat != 1 || len(f.Tasks) != 2 || f.Tasks[0].Task.Task().Name != "booking" {
		t.Errorf("folder suite %+v: want its two task files in name order, one trial", f)
	}
}

// TestBadSuitesAreRefusedWithTheirPath checks each refusal names the field, and that the
// schema refuses what it can state.
func TestBadSuitesAreRefusedWithTheirPath(t *testing.T) {
	dir := folder(t)
	sch := schema(t)
	head := "schema: observatory.suite/v1\n"
	for _, c := range []struct {
		name, doc, path, reason string
		schemaToo               bool
	}{
		{"another schema", "schema: observatory.task/v1\ntasks: [{file: booking.yaml}]\n", "schema", `want "observatory.suite/v1"`, true},
		{"an unknown field", head + "tasks: [{file: booking.yaml, attempt: [x]}]\n", "tasks[0].attempt", "unknown field", true},
		{"no tasks", head + "tasks: []\n", "tasks", "no task files", true},
		{"file and glob", head + "tasks: [{file: booking.yaml, glob: '*.yaml'}]\n", "tasks[0]", "give file: or glob:", true},
		{"too many trials", head + "repeat: 5000\ntasks: [{file: booking.yaml}]\n", "repeat", "want 1 to 1000", true},
		{"outside the folder", head + "tasks: [{file: ../booking.yaml}]\n", "tasks[0]", "outside the suite's folder", false},
		{"an absolute path", head + "tasks: [{glob: /etc/*.yaml}]\n", "tasks[0]", "outside the suite's folder", false},
		{"a glob matching nothing", head + "tasks: [{glob: 'nothing*.yaml'}]\n", "tasks[0]", "matches no file", false},
		{"an unknown attempt", head + "tasks: [{file: booking.yaml, attempts: [flies]}]\n", "tasks[0]", `has no attempt "flies"`, false},
		{"a task twice", head + "tasks: [{file: booking.yaml}, {glob: 'b*.yaml'}]\n", "tasks[1]", "runs each task file once", false},
		{"a negative budget", head + "tasks: [{file: booking.yaml}]\nbudgets: {run: {commits: -1}}\n", "budgets.run", "budget commits is -1", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := suitefile.Parse("bad.yaml", []byte(c.doc), dir, taskfile.Options{Labs: labs.ForTaskFiles})
			var e *taskfile.Error
			if !errors.As(err, &e) || e.File != "bad.yaml" || e.Path != c.path || !strings.Contains(e.Reason, c.reason) {
				t.Errorf("Parse = %v, want an error at %s containing %q", err, c.path, c.reason)
			}
			if c.schemaToo && validate(sch, c.doc) == nil {
				t.Errorf("the schema accepts it; the loader refuses it")
			}
		})
	}
	if _, err := suitefile.Load(t.TempDir(), taskfile.Options{}); err == nil || !strings.Contains(err.Error(), "no task files") {
		t.Errorf("an empty folder: %v, want refused", err)
	}
}
