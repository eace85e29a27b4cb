package taskfile_test

import (
	"fmt"
	"reflect"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/taskfile"
)

// TestAuthorityIsReadAndChecked: a task's authority section reaches the task as declared, and
// a bad one is refused with its path.
func TestAuthorityIsReadAndChecked(t *testing.T) {
	good := fmt.Sprintf(minimal, `authority:
  principal: {test_id: account}
  relevant:
    - {id: price, test_id: price}
    - {id: recipient, cookie: payee}
  version: {css: 'meta[name="app-version"]'}
  freshness_ms: 2000
`)
	s, err := taskfile.Parse("shop.yaml", []byte(good), "", taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := &agent.Authority{Principal: &agent.Probe{TestID: "account"}, Version: &agent.Probe{CSS: `meta[name="app-version"]`},
		Relevant: []agent.Probe{{ID: "price", TestID: "price"}, {ID: "recipient", Cookie: "payee"}}, FreshnessMS: 2000}
	if got := s.Task().Authority; !reflect.DeepEqual(got, want) {
		t.Errorf("authority %+v, want %+v", got, want)
	}
	for _, tt := range []struct{ yaml, want string }{
		{"authority: {principal: {test_id: a, cookie: b}}\n", "shop.yaml: at authority: principal: set exactly one of test_id, css, cookie and storage (it has 2)"},
		{"authority: {relevant: [{test_id: price}]}\n", `shop.yaml: at authority: relevant[0].id "": want a lower-case name`},
		{"authority: {relevant: [{id: p, css: x}, {id: p, css: y}]}\n", `shop.yaml: at authority: relevant[1].id "p": declared twice`},
		{"authority: {freshness_ms: -1}\n", "shop.yaml: at authority: freshness_ms -1: want 0 (no limit) to 3600000"},
		{"authority: {principal: {tests_id: a}}\n", "shop.yaml: at authority.principal.tests_id: unknown field"},
	} {
		refused(t, "shop.yaml", func() error {
			_, err := taskfile.Parse("shop.yaml", []byte(fmt.Sprintf(minimal, tt.yaml)), "", taskfile.Options{})
			return err
		}, tt.want)
	}
}
