package app

import (
	"errors"
	"slices"
	"testing"

	"observatory/backend/agent"
)

// strangersRun is an imported run whose attempt loaded /admin/delete-all, tried a held
// click, and clicked Delete on another origin.
func strangersRun(status agent.RunStatus) agent.Run {
	step := func(i int, kind agent.ActionKind, desc, value, page string, admission agent.Admission) agent.Step {
		return agent.Step{Index: i, Action: agent.Action{Kind: kind, Description: desc, Value: value,
			Target: agent.Target{Role: "button", Name: "Delete"}},
			Decision: agent.Decision{Admission: admission}, Before: agent.Sample{URL: page}}
	}
	return agent.Run{ID: "r1", Task: "wipe", Status: status, Source: "wipe.run.json", Attempts: []agent.Attempt{{Slug: "a", Steps: []agent.Step{
		step(0, agent.ActNavigate, "Open the admin page", "/admin/delete-all", "http://127.0.0.1:8080/", agent.Allow),
		step(1, agent.ActClick, "Held", "", "http://127.0.0.1:8080/admin", agent.Hold),
		step(2, agent.ActClick, "Delete everything", "", "https://other.example:8443/x", agent.Allow),
	}}}}
}

func TestARerunListsItsStepsAndTheirOrigins(t *testing.T) {
	r, err := PlanRerun(strangersRun(agent.RunImported), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Plans["a"]) != 2 || len(r.Steps) != 2 {
		t.Fatalf("plan %v, steps %v; want the two steps that ran", r.Plans["a"], r.Steps)
	}
	if s := r.Steps[0]; s.Step != 1 || s.Origin != "http://127.0.0.1:8080" || s.Contract != agent.ContractNavigate {
		t.Errorf("the navigation is listed as %+v", s)
	}
	if s := r.Steps[1]; s.Step != 3 || s.Origin != "https://other.example:8443" || s.Contract != agent.ContractIrreversible {
		t.Errorf("the delete is listed as %+v", s)
	}
	if want := []string{"http://127.0.0.1:8080", "https://other.example:8443"}; !slices.Equal(r.Origins(), want) {
		t.Errorf("origins %v, want %v", r.Origins(), want)
	}
	if _, err := PlanRerun(strangersRun(agent.RunImported), []string{"nope"}); err == nil {
		t.Error("a rerun of no attempt was planned")
	}
}

// TestAnImportedRunIsPreparedOnlyOnTheUsersYes: no consent and a no refuse before anything
// is prepared; a yes, and a run made here, go on to prepare the run (which, with no task
// given here, then fails for that).
func TestAnImportedRunIsPreparedOnlyOnTheUsersYes(t *testing.T) {
	imported, err := PlanRerun(strangersRun(agent.RunImported), nil)
	if err != nil {
		t.Fatal(err)
	}
	var shown []RerunStep
	no := func(r Rerun) (bool, error) { shown = r.Steps; return false, nil }
	yes := func(Rerun) (bool, error) { return true, nil }
	for name, consent := range map[string]func(Rerun) (bool, error){"no consent": nil, "a no": no} {
		if _, err := imported.Prepare(RunRequest{}, consent); !errors.Is(err, ErrRerunRefused) {
			t.Errorf("%s: %v, want ErrRerunRefused", name, err)
		}
	}
	if len(shown) != 2 {
		t.Errorf("consent was shown %v, want the two steps", shown)
	}
	if _, err := imported.Prepare(RunRequest{}, yes); err == nil || errors.Is(err, ErrRerunRefused) {
		t.Errorf("with a yes: %v, want it prepared (and refused for want of a task)", err)
	}
	live, err := PlanRerun(strangersRun(agent.RunFinished), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := live.Prepare(RunRequest{}, nil); err == nil || errors.Is(err, ErrRerunRefused) {
		t.Errorf("a run made here: %v, want it prepared without asking", err)
	}
}
