package runfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDuplicateKeysAreRefusedWithTheirPath edits testdata/good.json so that a key appears
// twice in one object. encoding/json alone keeps the last (merging two objects given for one
// field), so each of these files used to decode, and verify.
func TestDuplicateKeysAreRefusedWithTheirPath(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "good.json"))
	if err != nil {
		t.Fatal(err)
	}
	const save = `"data": {
            "room": "north",
            "title": "Spectral scan"
          }`
	tests := []struct {
		name, old, new, path string
	}{
		{"a second data object without the room", save, save + `, "data": {"title": "Spectral scan"}`, "attempts[0].events[1].data"},
		{"an escaped spelling of data", save, save + `, "d\u0061ta": {"title": "Spectral scan"}`, "attempts[0].events[1].data"},
		{"attempts twice", `"attempts": [`, `"attempts": [], "attempts": [`, "attempts"},
		{"terminal twice", `"terminal": "completed",`, `"terminal": "failed", "terminal": "completed",`, "attempts[0].terminal"},
		{"a duplicate deep in a sample", `"url": "http://127.0.0.1:1/",`, `"url": "http://127.0.0.1:1/", "url": "http://evil.example/",`, "attempts[0].steps[0].after.url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.Contains(good, []byte(tt.old)) {
				t.Fatalf("good.json has no %q to edit", tt.old)
			}
			data := bytes.Replace(good, []byte(tt.old), []byte(tt.new), 1)
			_, err := Decode(bytes.NewReader(data))
			var refused *Error
			if !errors.As(err, &refused) || refused.Path != tt.path || !strings.Contains(refused.Problem, "duplicate key") {
				t.Errorf("Decode = %v\nwant an *Error at %s about a duplicate key", err, tt.path)
			}
		})
	}
}

// TestCaseVariantKeysAreRefusedWithTheirPath: encoding/json matches a struct's fields
// ignoring case, so "Terminal" after "terminal" would set the attempt's terminal state; the
// shape check compares names exactly and refuses such a key as unknown.
func TestCaseVariantKeysAreRefusedWithTheirPath(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "good.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, old, new, path string
	}{
		{"terminal in two cases", `"terminal": "completed",`, `"terminal": "failed", "Terminal": "completed",`, "attempts[0].Terminal"},
		{"a sample's url in two cases", `"url": "http://127.0.0.1:1/",`, `"url": "http://127.0.0.1:1/", "URL": "http://evil.example/",`, "attempts[0].steps[0].after.URL"},
		{"a long s, which folds to s", `"attempts": [`, `"\u017fchema": "x", "attempts": [`, "\u017fchema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.Contains(good, []byte(tt.old)) {
				t.Fatalf("good.json has no %q to edit", tt.old)
			}
			_, err := Decode(bytes.NewReader(bytes.Replace(good, []byte(tt.old), []byte(tt.new), 1)))
			var refused *Error
			if !errors.As(err, &refused) || refused.Path != tt.path || !strings.Contains(refused.Problem, "unknown field") {
				t.Errorf("Decode = %v\nwant an *Error at %s about an unknown field", err, tt.path)
			}
		})
	}
}
