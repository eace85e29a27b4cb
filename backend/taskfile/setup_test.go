package taskfile

import "testing"

// TestSetupStepsAreMarked checks that the session's setup steps come first in the plan,
// marked as setup, and the task's own steps are not.
func TestSetupStepsAreMarked(t *testing.T) {
	s, err := Parse("t.yaml", []byte(`schema: observatory.task/v1
name: t
intent: Look.
start_url: http://127.0.0.1:1/
session:
  setup:
    - {description: Fill the password, action: fill, target: {label: Password}, value: pw, secret: true}
    - {description: Sign in, action: click, target: {role: button, name: Sign in}}
plan: [{description: Fill the title, action: fill, target: {label: Title}, value: x}]
success: [{id: up, http: {url: http://127.0.0.1:1/api, expr: status == 200}}]
`), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	plan := s.Plan()
	if len(plan) != 3 || !plan[0].Setup || !plan[1].Setup || plan[2].Setup {
		t.Errorf("plan %+v: want two setup steps, then the task's", plan)
	}
}
