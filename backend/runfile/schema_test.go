package runfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaPath and schemaV1Path are the documented JSON Schemas of the two versions.
var (
	schemaPath   = filepath.Join("..", "..", "docs", "runfile.schema.json")
	schemaV1Path = filepath.Join("..", "..", "docs", "runfile.v1.schema.json")
)

func compileSchema(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(path)
	if err != nil {
		t.Fatalf("compiling %s: %v", path, err)
	}
	return sch
}

func validateSchema(sch *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

func TestSchemaAcceptsExportedFiles(t *testing.T) {
	sch := compileSchema(t, schemaPath)
	honest := encoded(t, goodFile())
	nils := goodFile()
	nils.Run.Attempts[0].Steps[0].After.Fields, nils.Run.Attempts[0].Plan = nil, nil // Go writes null for these
	sharp := goodFile()
	after := &sharp.Run.Attempts[0].Steps[0].After
	after.PixelRatio, after.DOM, sharp.Run.Attempts[0].Steps[0].Before.DOMSkipped = 2, "0123456789abcdef.dom.txt", "the page's DOM was 2.5 MiB"
	for name, data := range map[string][]byte{"good": honest, "with nulls": encoded(t, nils), "with traffic": encoded(t, trafficFile()), "with a pixel ratio and DOM snapshots": encoded(t, sharp)} {
		if err := validateSchema(sch, data); err != nil {
			t.Errorf("%s file does not validate against %s: %v", name, schemaPath, err)
		}
	}
}

// TestSchemaRefusesBadShapes checks that the version 1 schema and Decode agree on the files
// whose fault is one of shape, and that the v1 files of testdata validate against it.
func TestSchemaRefusesBadShapes(t *testing.T) {
	sch := compileSchema(t, schemaV1Path)
	for _, name := range []string{"good.json", "v1-booking.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSchema(sch, data); err != nil {
			t.Errorf("%s does not validate against %s: %v", name, schemaV1Path, err)
		}
	}
	for _, name := range []string{"array-at-top.json", "missing-schema.json", "unknown-version.json",
		"mistyped-field.json", "unknown-field.json", "missing-field.json", "too-many-events.json",
		"bad-terminal.json", "unfinished.json", "bad-config.json", "empty-attempts.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "bad", name))
		if err != nil {
			t.Fatal(err)
		}
		if validateSchema(sch, data) == nil {
			t.Errorf("%s validates against the schema, but Decode refuses it", name)
		}
	}
}
