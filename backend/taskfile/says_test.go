package taskfile_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/taskfile"
)

// TestAConditionSaysWhatItChecks: an http condition's own words reach its evidence beside
// what the answer showed, its CEL is recorded apart, and a task rebuilt from its spec (as an
// import does) words the same answer identically.
func TestAConditionSaysWhatItChecks(t *testing.T) {
	data := strings.Replace(fmt.Sprintf(minimal, ""), "    page: {text: Done}\n", `    page: {text: Done}
  - id: room
    http: {url: "http://127.0.0.1:8080/api/state", expr: 'body.records.exists(r, r.room == "north")', says: the reservation is in north}
`, 1)
	s, err := taskfile.Parse("says.yaml", []byte(data), "", taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := taskfile.FromSpec(s.Spec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	answers := []agent.Answer{
		{Condition: "ok", Kind: "page", Raw: json.RawMessage(`{"text":"Done"}`)},
		{Condition: "room", Kind: "http", Raw: json.RawMessage(`{"status":200,"content_type":"application/json","body":{"records":[{"room":"south"}]}}`)},
	}
	want := `status 200: none of the 1 items of records matches; the closest, #1: room is "south", want "north" (want: the reservation is in north)`
	for _, suite := range []taskfile.Suite{s, r} {
		v, err := suite.Judge(agent.Evidence{Answers: answers})
		if err != nil {
			t.Fatal(err)
		}
		c := v.Gate.Conditions[1]
		if c.Done || c.Evidence != want || c.Check != `body.records.exists(r, r.room == "north")` {
			t.Errorf("got %+v, want evidence %q and the expression as its check", c, want)
		}
	}
}
