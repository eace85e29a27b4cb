package taskfile

import (
	"fmt"
	"strings"
	"testing"
)

// TestKeysAreCountedPerObject checks the key limit counts the keys of one object: sibling
// objects, nested ones and list entries each count their own, and the file's limit all.
func TestKeysAreCountedPerObject(t *testing.T) {
	keys := func(n int, indent string) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%sk%d: 1\n", indent, i)
		}
		return b.String()
	}
	accepted := map[string]string{
		"exactly the limit":   keys(MaxKeys, ""),
		"two sibling objects": "a:\n" + keys(MaxKeys, "  ") + "b:\n" + keys(MaxKeys, "  "),
		"list entries":        "a:\n" + strings.Repeat("  - x: 1\n    y: 2\n", MaxKeys),
		"nested then back":    "a:\n  b:\n" + keys(MaxKeys-1, "    ") + "  c: 1\n" + keys(MaxKeys-2, ""),
		"quoted keys":         strings.ReplaceAll(keys(MaxKeys, `"`), ": 1", `": 1`),
	}
	for name, text := range accepted {
		if _, err := parseYAML([]byte(text)); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
	many := ""
	for i := 0; i <= MaxFileKeys/MaxKeys; i++ {
		many += fmt.Sprintf("m%d:\n", i) + keys(MaxKeys-1, "  ")
	}
	refused := map[string]string{
		"one over":              keys(MaxKeys+1, ""),
		"one over after a nest": "a:\n  b: 1\n" + keys(MaxKeys, ""),
		"one over in an entry":  "a:\n  - " + strings.TrimPrefix(keys(MaxKeys+1, "    "), "    "),
		"many objects":          many,
	}
	for name, text := range refused {
		want := "more than 1000 keys in one object"
		if name == "many objects" {
			want = "more than 10000 keys in the file"
		}
		_, err := parseYAML([]byte(text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", name, err, want)
		}
	}
}
