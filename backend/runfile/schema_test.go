package runfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaPath is the documented JSON Schema of the format.
var schemaPath = filepath.Join("..", "..", "docs", "runfile.schema.json")

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(schemaPath)
	if err != nil {
		t.Fatalf("compiling %s: %v", schemaPath, err)
	}
	return sch
}

func validate(sch *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

func TestSchemaAcceptsExportedFiles(t *testing.T) {
	sch := compileSchema(t)
	honest := encoded(t, goodFile())
	nils := goodFile()
	nils.Attempts[0].Steps[0].After.Fields, nils.Attempts[0].Plan = nil, nil // Go writes null for these
	for name, data := range map[string][]byte{"good": honest, "with nulls": encoded(t, nils)} {
		if err := validate(sch, data); err != nil {
			t.Errorf("%s file does not validate against %s: %v", name, schemaPath, err)
		}
	}
}

// TestSchemaRefusesBadShapes checks that the schema and Decode agree on the files whose
// fault is one of shape.
func TestSchemaRefusesBadShapes(t *testing.T) {
	sch := compileSchema(t)
	for _, name := range []string{"array-at-top.json", "missing-schema.json", "unknown-version.json",
		"mistyped-field.json", "unknown-field.json", "missing-field.json", "too-many-events.json",
		"bad-terminal.json", "unfinished.json", "bad-config.json", "empty-attempts.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "bad", name))
		if err != nil {
			t.Fatal(err)
		}
		if validate(sch, data) == nil {
			t.Errorf("%s validates against the schema, but Decode refuses it", name)
		}
	}
}
