package runfile

import (
	"encoding/json"
	"errors"
	"testing"

	"observatory/backend/agent"
)

// documentError is a resolver's refusal of one field of the carried task document, as a task
// file's error gives it.
type documentError struct{ path, reason string }

func (e documentError) Error() string                     { return "task spec: at " + e.path + ": " + e.reason }
func (e documentError) InDocument() (path, reason string) { return e.path, e.reason }

// TestARefusedTaskDocumentIsRefusedAtItsField checks where Verify locates a resolver's
// refusal: at the document's own field when the error names one (a quoted key included), at
// run.spec otherwise, and at the run's task for a file that carries no document.
func TestARefusedTaskDocumentIsRefusedAtItsField(t *testing.T) {
	tests := []struct {
		name string
		spec json.RawMessage
		err  error
		path string
		msg  string
	}{
		{"a field", json.RawMessage(`{"name":"fake"}`), documentError{"success[0].http.expr", "undeclared reference to 'bdy'"},
			"run.spec.success[0].http.expr", "run file refused at run.spec.success[0].http.expr: the task document refused: undeclared reference to 'bdy'"},
		{"a quoted key", json.RawMessage(`{"name":"fake"}`), documentError{`["X-Token"]`, "unknown field"},
			`run.spec["X-Token"]`, `run file refused at run.spec["X-Token"]: the task document refused: unknown field`},
		{"no field", json.RawMessage(`{"name":"fake"}`), documentError{"", "line 3: not valid JSON"},
			"run.spec", "run file refused at run.spec: task spec: at : line 3: not valid JSON"},
		{"another error", json.RawMessage(`{"name":"fake"}`), errors.New("no such lab"), "run.spec", "run file refused at run.spec: no such lab"},
		{"no document", nil, errors.New(`no lab called "fake"`), "run.task", `run file refused at run.task: no lab called "fake"`},
	}
	for _, tt := range tests {
		f := goodFile()
		f.Run.Spec = tt.spec
		_, err := Verify(func(string, json.RawMessage) (agent.Suite, error) { return nil, tt.err }, f)
		var re *Error
		if !errors.As(err, &re) || re.Path != tt.path || err.Error() != tt.msg {
			t.Errorf("%s: %v; want a refusal at %s: %s", tt.name, err, tt.path, tt.msg)
		}
	}
}
