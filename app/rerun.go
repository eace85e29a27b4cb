package app

import (
	"errors"
	"fmt"
	"net/url"
	"slices"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// Rerun is what a rerun of a stored run will do before it does it: each chosen attempt's
// recorded actions as a scripted plan, and every one of those actions listed with the origin
// it acts on, for the user to read before agreeing.
type Rerun struct {
	// Run is the stored run rerun.
	Run agent.Run
	// Slugs are the attempts rerun, in the run's order.
	Slugs []string
	// Plans are each attempt's actions, by slug.
	Plans map[string]agent.Plan
	// Steps lists every action of every plan, in order.
	Steps []RerunStep
}

// RerunStep is one action a rerun takes, as the user is shown it.
type RerunStep struct {
	Attempt string
	// Step is the recorded step's number, from 1.
	Step int
	// Action is the recorded action, its secret value masked.
	Action agent.Action
	// Origin is where it acts: the origin of the page it was recorded on, or, for a
	// navigation, of the address it loads.
	Origin string
	// Contract is what the harness makes of the action on the recorded page (irreversible,
	// navigate…), recomputed here rather than read from the file.
	Contract agent.Contract
}

// ErrRerunRefused is returned when the user does not agree to a rerun that needs their yes.
var ErrRerunRefused = errors.New("the rerun was not agreed to, so nothing ran")

// PlanRerun turns the chosen attempts of run (all when attempts is empty) into the plans
// a rerun executes (see planner.Rerun), listing their steps.
func PlanRerun(run agent.Run, attempts []string) (Rerun, error) {
	r := Rerun{Run: run, Plans: map[string]agent.Plan{}}
	for _, a := range run.Attempts {
		if len(attempts) > 0 && !slices.Contains(attempts, a.Slug) {
			continue
		}
		plan, err := planner.Rerun(a.Steps)
		if err != nil {
			return Rerun{}, fmt.Errorf("attempt %s: %w", a.Slug, err)
		}
		r.Plans[a.Slug] = plan
		r.Slugs = append(r.Slugs, a.Slug)
		r.Steps = append(r.Steps, rerunSteps(a)...)
	}
	if len(r.Slugs) == 0 {
		return Rerun{}, fmt.Errorf("run %s has no attempt %v", run.ID, attempts)
	}
	return r, nil
}

// rerunSteps lists the steps of a that planner.Rerun keeps.
func rerunSteps(a agent.Attempt) []RerunStep {
	var out []RerunStep
	for _, s := range a.Steps {
		if s.Decision.Admission == agent.Hold || s.Decision.Admission == agent.Deny || s.Unresolved {
			continue
		}
		origin := originOf(s.Before.URL, "")
		if s.Action.Kind == agent.ActNavigate {
			origin = originOf(s.Before.URL, s.Action.Value)
		}
		out = append(out, RerunStep{Attempt: a.Slug, Step: s.Index + 1, Action: s.Action.Redacted(),
			Origin: origin, Contract: harness.Classify(s.Action, s.Before).Contract})
	}
	return out
}

// originOf is the origin of ref resolved against page (of page itself when ref is empty), or
// what there is of it when it has none.
func originOf(page, ref string) string {
	base, err := url.Parse(page)
	if err != nil {
		base = &url.URL{}
	}
	u := base
	if ref != "" {
		if u, err = base.Parse(ref); err != nil {
			return ref
		}
	}
	if u.Host == "" {
		if u.Scheme != "" {
			return u.Scheme + ":"
		}
		return "(unknown)"
	}
	return u.Scheme + "://" + u.Host
}

// NeedsConsent is true when the run came from a file, not from this machine: its steps
// are a stranger's, so nothing of it runs before the user has read them and said yes.
func (r Rerun) NeedsConsent() bool { return r.Run.Status == agent.RunImported }

// Origins are the distinct origins the rerun's steps act on, in order of first use.
func (r Rerun) Origins() []string {
	var out []string
	for _, s := range r.Steps {
		if !slices.Contains(out, s.Origin) {
			out = append(out, s.Origin)
		}
	}
	return out
}

// Prepare prepares the rerun as a run of req's task, its attempts following their plans.
// Every front door reruns through here: a run that NeedsConsent is prepared only once
// consent, shown the rerun, says yes; a nil consent is a no. The harness decides each step
// as in a live run, with req's approver for irreversible actions.
func (r Rerun) Prepare(req RunRequest, consent func(Rerun) (bool, error)) (*Prepared, error) {
	if r.NeedsConsent() {
		if consent == nil {
			return nil, ErrRerunRefused
		}
		yes, err := consent(r)
		if err != nil {
			return nil, err
		}
		if !yes {
			return nil, ErrRerunRefused
		}
	}
	req.Attempts = r.Slugs
	req.Planner = func(spec agent.AttemptSpec) agent.Planner { return planner.Scripted(r.Plans[spec.Slug]) }
	req.Policy, req.Naive = nil, false
	return Prepare(req)
}
