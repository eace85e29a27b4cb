package jsonstrict

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// event is one recorded event of a run file, the place the first duplicate was found.
const event = `{"seq": 2, "at_ms": 520, "type": "save", "data": {"title": "Spectral scan", "room": "north"}}`

func TestCheckAcceptsOrdinaryJSON(t *testing.T) {
	for _, doc := range []string{
		`{}`, `[]`, `0`, `"x"`, `null`, " {\"a\": 1}\n\n",
		`{"attempts": [` + event + `, ` + event + `]}`,
		`{"a": {"x": 1}, "b": {"x": 1}}`,          // the same key in two objects
		`[{"x": 1}, {"x": 2}]`,                    // and in two array elements
		`{"data": 1, "Data": 2, "dat\u0061a": 3}`, // keys differ after unescaping
		`{"n": 1e999}`,                            // a number too large for a float is still JSON
		strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	} {
		if err := Check([]byte(doc)); err != nil {
			t.Errorf("Check(%s) = %v, want nil", doc, err)
		}
	}
}

func TestCheckRefusesWithThePath(t *testing.T) {
	deep := strings.Repeat(`{"a":`, MaxDepth) + `{}` + strings.Repeat("}", MaxDepth)
	tests := []struct {
		name, doc, path, reason string
	}{
		{"two data objects in one event",
			`{"attempts": [{"events": [{"seq": 1}, {"seq": 2, "data": {"title": "Spectral scan", "room": "north"}, "data": {"title": "Spectral scan"}}]}]}`,
			"attempts[0].events[1].data", `duplicate key "data"`},
		{"top-level attempts twice", `{"schema": "s", "attempts": [], "attempts": [{}]}`, "attempts", `duplicate key "attempts"`},
		{"terminal twice", `{"attempts": [{"terminal": "failed", "terminal": "completed"}]}`, "attempts[0].terminal", `duplicate key "terminal"`},
		{"an escaped spelling", `{"attempts": [{"events": [{}, {"data": {}, "d\u0061ta": {}}]}]}`,
			"attempts[0].events[1].data", `duplicate key "data" (spelled "d\u0061ta" here)`},
		{"an escaped spelling first", `{"\u0074erminal": "failed", "terminal": "completed"}`, "terminal", `duplicate key "terminal": `},
		{"an escaped slash", `{"a/b": 1, "a\/b": 2}`, `["a/b"]`, `duplicate key "a/b"`},
		{"an odd key", `{"run": {"odd key": 1, "odd key": 2}}`, `run["odd key"]`, `duplicate key "odd key"`},
		{"in an array of arrays", `[[1], [{"k": 1, "k": 2}]]`, "[1][0].k", `duplicate key "k"`},
		{"after nested values", `{"a": {"b": [1, {"c": 2}]}, "z": 1, "a": 2}`, "a", `duplicate key "a"`},
		{"trailing data", `{"a": 1} {"a": 2}`, "", "trailing data after the JSON value"},
		{"trailing garbage", "{}\n,", "", "trailing data"},
		{"too deep", deep, "a" + strings.Repeat(".a", MaxDepth-1), "nested more than 64 levels deep"},
		{"too deep in arrays", strings.Repeat("[", MaxDepth+1), strings.Repeat("[0]", MaxDepth), "nested more than 64 levels deep"},
		{"empty", " \n", "", "not JSON: the document is empty"},
		{"a syntax error inside", `{"attempts": [{"terminal": }]}`, "attempts[0]", "not JSON"},
		{"truncated", `{"attempts": [`, "attempts", "not JSON"},
	}
	for _, tt := range tests {
		err := Check([]byte(tt.doc))
		var je *Error
		if !errors.As(err, &je) {
			t.Errorf("%s: Check = %v, want an *Error", tt.name, err)
			continue
		}
		if je.Path != tt.path || !strings.Contains(je.Reason, tt.reason) {
			t.Errorf("%s: refused at %q: %q\nwant at %q: a reason with %q", tt.name, je.Path, je.Reason, tt.path, tt.reason)
		}
	}
}

func TestErrorNamesThePath(t *testing.T) {
	err := Check([]byte(`{"run": {"id": "a", "id": "b"}}`))
	if want := `JSON refused at run.id: duplicate key "id": an object names each member once`; err == nil || err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

// FuzzCheck checks that Check never panics, accepts only valid JSON, refuses all invalid
// JSON, and accepts whatever encoding/json writes from a decoded value (whose objects cannot
// repeat a key).
func FuzzCheck(f *testing.F) {
	for _, seed := range []string{`{}`, event, `{"a": 1, "a": 2}`, `{"d\u0061ta": 1, "data": 2}`, `[[[]]]`, `{} x`, `"\ud800"`, `{"a":[1,{"b":null}]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Check(data)
		if valid := json.Valid(data); !valid && err == nil {
			t.Fatalf("Check accepted invalid JSON %q", data)
		} else if valid && err != nil && strings.Contains(err.Error(), "not JSON") {
			t.Fatalf("Check called valid JSON %q not JSON: %v", data, err)
		}
		if err != nil {
			return
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return // a value encoding/json cannot hold, such as a number past float64
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(again); err != nil {
			t.Fatalf("Check refused %q, re-encoded from accepted %q: %v", again, data, err)
		}
	})
}
