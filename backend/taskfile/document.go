package taskfile

import (
	"path/filepath"
	"strings"
)

// DecodeDocument reads the text of a YAML (or, for a .json name, JSON) file of another of
// Observatory's formats into dst, a pointer to its format type, as strictly as a task file:
// size, UTF-8, no anchors or duplicate keys, every key a field and every value of its type.
// The first problem is an *Error naming the file (name) and the field's path or line.
func DecodeDocument(name string, data []byte, dst any) error {
	tree, err := documentTree(name, data)
	if err != nil {
		return located(name, err)
	}
	if err := decode(tree, "", dst); err != nil {
		return located(name, err)
	}
	return nil
}

// SchemaOf is the schema a YAML or JSON document names at its top ("observatory.task/v1"),
// or "" when it names none or does not parse: for telling formats apart before reading one.
func SchemaOf(name string, data []byte) string {
	tree, err := documentTree(name, data)
	if err != nil || tree.kind != kObject {
		return ""
	}
	for _, f := range tree.fields {
		if f.key == "schema" && f.val.kind == kString {
			return f.val.s
		}
	}
	return ""
}

// documentTree parses a document's text into a tree, with a task file's limits.
func documentTree(name string, data []byte) (*node, error) {
	if len(data) > MaxFileSize {
		return nil, errLine(0, "the file is over %d KiB", MaxFileSize>>10)
	}
	data, err := utf8Text(data)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(filepath.Ext(name), ".json") {
		return parseJSON(data)
	}
	return parseYAML(data)
}
