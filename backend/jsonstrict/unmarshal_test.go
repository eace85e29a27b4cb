package jsonstrict

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

type inner struct {
	Kind string `json:"kind"`
}

type Embedded struct {
	Shared string `json:"shared"`
}

type settings struct {
	Embedded
	Video   bool              `json:"video"`
	Config  inner             `json:"config"`
	Ptr     *inner            `json:"ptr,omitempty"`
	List    []inner           `json:"list"`
	ByName  map[string]inner  `json:"by_name"`
	Free    map[string]any    `json:"free"`
	Raw     json.RawMessage   `json:"raw"`
	At      time.Time         `json:"at"`
	Plain   string            // named by its Go name
	Skipped string            `json:"-"`
	hidden  string            // unexported: never decoded
	Arr     [1]map[string]int `json:"arr"`
}

func TestUnmarshalRefusesCaseVariantKeys(t *testing.T) {
	tests := []struct {
		name, doc, path, key string
	}{
		{"the settings file's case", `{"video": false, "Video": true}`, "Video", "video"},
		{"a case-variant key alone", `{"VIDEO": true}`, "VIDEO", "video"},
		{"in a nested object", `{"config": {"kind": "a", "Kind": "b"}}`, "config.Kind", "kind"},
		{"behind a pointer", `{"ptr": {"KIND": "b"}}`, "ptr.KIND", "kind"},
		{"in an array element", `{"list": [{"kind": "a"}, {"kInd": "b"}]}`, "list[1].kInd", "kind"},
		{"in a map's value", `{"by_name": {"x": {"Kind": "b"}}}`, "by_name.x.Kind", "kind"},
		{"a promoted field", `{"Shared": "x"}`, "Shared", "shared"},
		{"a Go name", `{"plain": "x"}`, "plain", "Plain"},
		{"the Kelvin sign folds to k", `{"config": {"\u212aind": "b"}}`, "config[\"\u212aind\"]", "kind"},
		{"the long s folds to s", `{"\u017fhared": "x"}`, "[\"\u017fhared\"]", "shared"},
	}
	for _, tt := range tests {
		var v settings
		err := Unmarshal([]byte(tt.doc), &v)
		var je *Error
		if !errors.As(err, &je) {
			t.Errorf("%s: Unmarshal = %v, want an *Error", tt.name, err)
			continue
		}
		if je.Path != tt.path || !strings.Contains(je.Reason, "is not the field "+`"`+tt.key+`"`) {
			t.Errorf("%s: refused at %q: %q; want at %q, naming the field %q", tt.name, je.Path, je.Reason, tt.path, tt.key)
		}
		if v.Video || v.Config.Kind != "" {
			t.Errorf("%s: a refused document still filled %+v", tt.name, v)
		}
	}
}

func TestUnmarshalDecodesExactKeys(t *testing.T) {
	doc := `{"video": true, "shared": "s", "config": {"kind": "k"}, "ptr": {"kind": "p"}, "list": [{"kind": "l"}],
		"by_name": {"Kind": {"kind": "m"}, "kind": {"kind": "n"}},
		"free": {"Video": 1, "video": 2}, "raw": {"Status": 1, "status": 2},
		"at": "2025-03-14T09:26:53Z", "Plain": "g", "unknown": {"Video": true}, "arr": [{"A": 1, "a": 2}]}`
	var v settings
	if err := Unmarshal([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	if !v.Video || v.Shared != "s" || v.Config.Kind != "k" || v.Ptr.Kind != "p" || v.List[0].Kind != "l" ||
		v.ByName["Kind"].Kind != "m" || v.ByName["kind"].Kind != "n" || len(v.Free) != 2 || v.Plain != "g" || v.Arr[0]["A"] != 1 {
		t.Errorf("decoded %+v", v)
	}
	if err := Unmarshal([]byte(`{"video": true, "video": false}`), &v); err == nil || !strings.Contains(err.Error(), "duplicate key") {
		t.Errorf("a duplicate key: %v, want Check's refusal", err)
	}
	var n int
	if err := Unmarshal([]byte(`3`), &n); err != nil || n != 3 {
		t.Errorf("a number: %d, %v", n, err)
	}
	if err := Unmarshal([]byte(`{}`), settings{}); err == nil {
		t.Error("a non-pointer: no error")
	}
}
