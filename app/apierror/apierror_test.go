package apierror

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"observatory/backend/bundle"
	"observatory/backend/runfile"
	"observatory/backend/store"
	"observatory/backend/taskfile"
)

func TestOfClassifiesAndLocates(t *testing.T) {
	conflict := New(Conflict, "a run is already going")
	tests := []struct {
		name   string
		err    error
		kind   Kind
		path   string
		status int
	}{
		{"a task file's field", fmt.Errorf("loading: %w", &taskfile.Error{File: "t.yaml", Path: "plan[1].target", Reason: "no such role"}), Invalid, "plan[1].target", 422},
		{"a task file's line", &taskfile.Error{File: "t.yaml", Line: 4, Reason: "bad YAML"}, Invalid, "line 4", 422},
		{"a run file's field", fmt.Errorf("import: %w", &runfile.Error{Path: "attempts[0].events[2]", Problem: "bad"}), Invalid, "attempts[0].events[2]", 422},
		{"a bundle's entry", &bundle.Error{Entry: "media/x.webm", Problem: "too large"}, Invalid, "media/x.webm", 422},
		{"a missing run", fmt.Errorf("run abc: %w", store.ErrNotFound), NotFound, "", 404},
		{"a run still written", store.ErrRunning, Conflict, "", 409},
		{"a service's own kind, wrapped", fmt.Errorf("start: %w", conflict), Conflict, "", 409},
		{"cancelled", fmt.Errorf("run: %w", context.Canceled), Cancelled, "", 499},
		{"anything else", errors.New("poll 0 ms: want 1 or more"), Invalid, "", 422},
	}
	for _, tt := range tests {
		got := Of(tt.err)
		if got.Kind != tt.kind || got.Path != tt.path || got.Message != tt.err.Error() || got.Kind.Status() != tt.status {
			t.Errorf("%s: Of = %+v (status %d), want kind %s, path %q, status %d, the whole message", tt.name, got, got.Kind.Status(), tt.kind, tt.path, tt.status)
		}
	}
	if !errors.Is(fmt.Errorf("x: %w", conflict), conflict) {
		t.Error("a sentinel made with New is not found by errors.Is")
	}
}

func TestTheWireForm(t *testing.T) {
	b, err := json.Marshal(Of(&taskfile.Error{Path: "success[0].expr", Reason: "undeclared reference"}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"kind":"invalid","message":"task file: at success[0].expr: undeclared reference","path":"success[0].expr"}`; string(b) != want {
		t.Errorf("wire form %s, want %s", b, want)
	}
}
