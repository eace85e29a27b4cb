package taskfile_test

import (
	"fmt"
	"testing"

	"observatory/backend/taskfile"
)

// TestAStepTimeoutIsCheckedAtItsPath loads timeout_ms on a step with a target, and refuses it
// out of range or on a step that waits otherwise (navigate, verify).
func TestAStepTimeoutIsCheckedAtItsPath(t *testing.T) {
	plan := "plan:\n  - {description: Add, action: click, target: {role: button, name: Add}, timeout_ms: 15000}\n"
	suite, err := taskfile.Parse("timeout.yaml", []byte(fmt.Sprintf(minimal, plan)), "", taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := suite.Plan(); len(p) != 1 || p[0].TimeoutMS != 15000 {
		t.Errorf("the plan is %+v, want one step with a 15000 ms timeout", p)
	}
	tests := []struct{ step, want string }{
		{"{description: Add, action: click, target: {role: button, name: Add}, timeout_ms: 120001}", "at plan[0].timeout_ms: 120001: want milliseconds from 1 to 120000"},
		{"{description: Add, action: click, target: {role: button, name: Add}, timeout_ms: -5}", "at plan[0].timeout_ms: -5: want milliseconds from 1 to 120000"},
		{"{description: Open, action: navigate, value: /, timeout_ms: 9000}", "at plan[0].timeout_ms: only a step with a target has a timeout"},
		{"{description: Check, action: verify, timeout_ms: 9000}", "at plan[0].timeout_ms: only a step with a target has a timeout"},
	}
	for _, tt := range tests {
		refused(t, "timeout.yaml", func() error {
			_, err := taskfile.Parse("timeout.yaml", []byte(fmt.Sprintf(minimal, "plan:\n  - "+tt.step+"\n")), "", taskfile.Options{})
			return err
		}, "timeout.yaml: "+tt.want)
	}
}

// TestAWaitForAConditionIsCheckedAtItsPath loads a wait_for naming a success condition, and
// refuses one naming no success condition, with a target too, optional, or on another action.
func TestAWaitForAConditionIsCheckedAtItsPath(t *testing.T) {
	plan := "plan:\n  - {description: Wait, action: wait_for, condition: ok, timeout_ms: 8000}\n"
	suite, err := taskfile.Parse("wait.yaml", []byte(fmt.Sprintf(minimal, plan)), "", taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := suite.Plan(); len(p) != 1 || p[0].Condition != "ok" || !p[0].Target.IsZero() {
		t.Errorf("the plan is %+v, want one wait for ok", p)
	}
	tests := []struct{ step, want string }{
		{"{description: Wait, action: wait_for, condition: done}", `at plan[0].condition: "done" is not a success condition; the task's are ok`},
		{"{description: Wait, action: wait_for, condition: ok, target: {text: Done}}", "at plan[0]: a wait_for step waits for a target or a condition, not both"},
		{"{description: Wait, action: wait_for, condition: ok, optional: true}", "at plan[0].optional: a wait for a condition is not optional"},
		{"{description: Add, action: click, condition: ok}", "at plan[0].condition: only a wait_for step waits for a condition"},
		{"{description: Wait, action: wait_for}", "at plan[0].target: a wait_for step needs a target"},
	}
	for _, tt := range tests {
		refused(t, "wait.yaml", func() error {
			_, err := taskfile.Parse("wait.yaml", []byte(fmt.Sprintf(minimal, "plan:\n  - "+tt.step+"\n")), "", taskfile.Options{})
			return err
		}, "wait.yaml: "+tt.want)
	}
}
