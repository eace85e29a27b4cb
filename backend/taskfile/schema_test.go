package taskfile_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"observatory/backend/labs"
	"observatory/backend/taskfile"
)

// TestSchemaAcceptsTheShippedTaskFiles validates every shipped task file (the booking and checkout labs',
// the tracker's, MediaWiki's, the outbox's with its safeguards, the starter) and a spec against docs/task.schema.json, and checks that it
// refuses a few files the loader refuses too.
func TestSchemaAcceptsTheShippedTaskFiles(t *testing.T) {
	sch, err := jsonschema.NewCompiler().Compile(filepath.Join("..", "..", "docs", "task.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/tracker/*.yaml")
	wiki, _ := filepath.Glob("testdata/mediawiki/*.yaml")
	files = append(files, wiki...)
	files = append(files, bookingTask, "../labs/checkout/task.yaml", "testdata/outbox/safeguards.yaml")
	docs := map[string][]byte{"starter": taskfile.Starter}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = b
	}
	booking, err := taskfile.Load(bookingTask, taskfile.Options{Labs: labs.ForTaskFiles})
	if err != nil {
		t.Fatal(err)
	}
	docs["the booking task's spec"] = booking.Spec()
	for name, doc := range docs {
		if err := validate(sch, doc); err != nil {
			t.Errorf("%s does not validate: %v", name, err)
		}
	}
	for _, name := range []string{"unknown-field.yaml", "two-locators.yaml", "two-kinds.yaml", "write-method.yaml", "wrong-type.yaml", "bad-schema.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata/bad", name))
		if err != nil {
			t.Fatal(err)
		}
		if validate(sch, b) == nil {
			t.Errorf("the schema accepts %s, which the loader refuses", name)
		}
	}
}

// validate checks a YAML (or JSON) document against sch.
func validate(sch *jsonschema.Schema, doc []byte) error {
	var v any
	if err := yaml.Unmarshal(doc, &v); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}
