// Package cireporttest checks CI reports in tests: CTRF files against the schema the ctrf
// npm package 0.3.0 ships (ctrf-schema-0.0.json, vendored here unchanged).
package cireporttest

import (
	"bytes"
	_ "embed"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed ctrf-schema-0.0.json
var schema []byte

// ValidateCTRF fails t unless data is a CTRF document valid against the vendored schema,
// formats (date-time, uuid) asserted.
func ValidateCTRF(t testing.TB, data []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("ctrf-schema-0.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("ctrf-schema-0.0.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the CTRF file is not JSON: %v", err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("the CTRF file does not validate against the ctrf 0.3.0 schema: %v", err)
	}
}
