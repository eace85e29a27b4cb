package app

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSettingsFileIsReadStrictly(t *testing.T) {
	tests := []struct {
		name, file, err string
	}{
		{"a duplicate key", `{"video": false, "video": true}`, `at video: duplicate key "video"`},
		{"an escaped duplicate", `{"config": {"latency_ms": 1, "l\u0061tency_ms": 9000}}`, `at config.latency_ms: duplicate key`},
		{"trailing data", `{"video": false} {"video": true}`, "trailing data"},
		// encoding/json matches field names ignoring case: each of these would turn video on.
		{"a case-variant duplicate", `{"video": false, "Video": true}`, `at Video: the key "Video" is not the field "video"`},
		{"a case-variant key alone", `{"screenshots": true, "VIDEO": false}`, `at VIDEO: the key "VIDEO" is not the field "video"`},
		{"a nested case-variant key", `{"retention": {"keep_last": 3, "Keep_Last": 1}}`, `at retention.Keep_Last: the key`},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(path, []byte(tt.file), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := (&Settings{path: path}).Get()
		if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Get = %+v, %v; want an error naming the file and containing %q", tt.name, got, err, tt.err)
		}
		if !reflect.DeepEqual(got, DefaultSettings()) {
			t.Errorf("%s: Get = %+v, want the defaults", tt.name, got)
		}
	}
}
