package browser

import (
	"context"
	"errors"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// TestLabelsMatchWhatAPersonReads runs a plan that targets every field of an expense form
// by its label, through the executor in Chromium: labels for= their control, labels wrapping
// it (with a select's options or a textarea's text inside the label), aria-labelledby and
// aria-label. Each step acts on its field, and a label that names no field, or only part of
// one, still matches nothing.
func TestLabelsMatchWhatAPersonReads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	page := openTestPage(t, "expenses.html", agent.PageOptions{})
	step := func(kind agent.ActionKind, label, value string) agent.Action {
		return agent.Action{ID: label, Description: string(kind) + " " + label, Kind: kind, Target: agent.Target{Label: label}, Value: value}
	}
	plan := agent.Plan{
		step(agent.ActFill, "Amount", "12.50"),
		step(agent.ActSelect, "Category", "Travel"),
		step(agent.ActSelect, "Currency", "USD"),
		step(agent.ActFill, "Note (optional)", "taxi"),
		step(agent.ActCheck, "Paid by card", ""),
		step(agent.ActFill, "Merchant", "Cab Co"),
		step(agent.ActFill, "Receipt number", "R-7"),
		step(agent.ActFill, "Category notes", "airport"),
	}
	x := &agent.Executor{Policy: harness.Policy{}}
	out := x.Run(ctx, page, agent.Job{Env: staticEnv{page.(*Page).page.URL()}, Planner: planner.Scripted(plan), Config: agent.DefaultConfig()}, agent.Hooks{})
	if len(out.Steps) != len(plan) {
		t.Fatalf("%d steps ran, want %d (%s: %s)", len(out.Steps), len(plan), out.Terminal, out.Reason)
	}
	for _, s := range out.Steps {
		if s.Error != "" {
			t.Errorf("%s: %s", s.Action.Description, s.Error)
		}
	}
	want := map[string]string{"Amount": "12.50", "Category": "Travel", "Currency": "USD", "Note (optional)": "taxi",
		"Paid by card": "true", "Merchant": "Cab Co", "Receipt number": "R-7", "Category notes": "airport"}
	fields := mustObserve(t, page).Fields
	for _, f := range fields {
		if v, ok := want[f.Name]; ok && f.Value != v {
			t.Errorf("%s %q holds %q, want %q", f.Role, f.Name, f.Value, v)
		}
		delete(want, f.Name)
	}
	if len(want) != 0 {
		t.Errorf("fields %v were not observed in %+v", want, fields)
	}
	for _, label := range []string{"Categ", "category", "Category Food", "Save"} {
		if err := page.Resolve(ctx, agent.Target{Label: label}); !errors.Is(err, agent.ErrNoTarget) {
			t.Errorf("label %q: %v, want no element", label, err)
		}
	}
}
