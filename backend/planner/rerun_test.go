package planner

import (
	"context"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestRerun checks which recorded steps a rerun re-executes, and that Scripted follows the
// plan it makes.
func TestRerun(t *testing.T) {
	allow := agent.Decision{Admission: agent.Allow}
	open := agent.Action{ID: "m1-click", Kind: agent.ActClick, Description: "click button[Reserve slot]",
		Target: agent.Target{Role: "button", Name: "Reserve slot", Alias: "Book a slot"}}
	fill := agent.Action{ID: "m2-fill", Kind: agent.ActFill, Description: "fill textbox[Reservation title]",
		Target: agent.Target{Role: "textbox", Name: "Reservation title"}, Value: "Spectral scan"}
	save := agent.Action{ID: "m3-click", Kind: agent.ActClick, Description: "click button[Save reservation]",
		Target: agent.Target{Role: "button", Name: "Save reservation"}}
	done := agent.Action{ID: "m5-done", Kind: agent.ActVerify, Description: "model says done"}
	cases := []struct {
		name    string
		steps   []agent.Step
		want    []string // action IDs
		wantErr string
	}{
		{"every step ran", []agent.Step{{Index: 0, Action: open, Decision: allow}, {Index: 1, Action: fill, Decision: allow},
			{Index: 2, Action: save, Decision: allow}, {Index: 3, Action: done, Decision: allow}},
			[]string{"m1-click", "m2-fill", "m3-click", "m5-done"}, ""},
		{"held and denied steps never ran", []agent.Step{{Index: 0, Action: open, Decision: allow},
			{Index: 1, Action: save, Decision: agent.Decision{Admission: agent.Hold}}, {Index: 2, Action: fill, Decision: allow},
			{Index: 3, Action: save, Decision: allow}, {Index: 4, Action: done, Decision: agent.Decision{Admission: agent.Deny}}},
			[]string{"m1-click", "m2-fill", "m3-click"}, ""},
		{"a target the model named again never ran", []agent.Step{{Index: 0, Action: save, Decision: allow, Error: "several elements match the target (2 of them)", Unresolved: true},
			{Index: 1, Action: open, Decision: allow}}, []string{"m1-click"}, ""},
		{"a failed step stays", []agent.Step{{Index: 0, Action: open, Decision: allow, Error: "no element matches the target"}},
			[]string{"m1-click"}, ""},
		{"an outside agent's observed inputs, then the gate waited on", []agent.Step{{Index: 0, Action: open, Provenance: agent.Observed},
			{Index: 1, Action: save, Provenance: agent.Observed}}, []string{"m1-click", "m3-click", "verify"}, ""},
		{"a step without an ID is named by its index", []agent.Step{{Index: 6, Action: agent.Action{Kind: agent.ActPress, Value: "PageDown"}, Decision: allow}},
			[]string{"step-7"}, ""},
		{"a secret cannot be replayed", []agent.Step{{Index: 0, Action: agent.Action{ID: "pw", Kind: agent.ActFill, Description: "fill password",
			Value: "••••••", Secret: true}, Decision: allow}}, nil, "step 1 (fill password) typed a secret"},
		{"a URL from the environment cannot be replayed", []agent.Step{{Index: 1, Action: agent.Action{ID: "go", Kind: agent.ActNavigate, Description: "open the dashboard",
			Value: "••••••/dashboard"}, Decision: allow}}, nil, "step 2 (open the dashboard) holds a value read from the environment"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan, err := Rerun(c.steps)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, a := range plan {
				ids = append(ids, a.ID)
			}
			if strings.Join(ids, ",") != strings.Join(c.want, ",") {
				t.Fatalf("plan %v, want %v", ids, c.want)
			}
			s := Scripted(plan)
			for i, a := range plan {
				p, err := s.Next(context.Background(), agent.Sample{}, make([]agent.Step, i))
				if err != nil || p.Action != a {
					t.Errorf("scripted step %d: %+v, %v; want %+v", i+1, p.Action, err, a)
				}
			}
		})
	}
	if plan, _ := Rerun([]agent.Step{{Action: open, Decision: allow}}); plan[0].Target.Alias != "Book a slot" {
		t.Error("the rerun dropped the target's alias")
	}
}
