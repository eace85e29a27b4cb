// Package metrics computes outcome metrics across stored runs, sliced by task, lab, attempt,
// planner (or model) and risk class. Every number is read from what the runs recorded (the
// verdicts, the steps, their decisions, approvals and reconciliations), nothing lab-specific;
// docs/metrics.md defines each one.
package metrics

import (
	"cmp"
	"fmt"
	"slices"

	"observatory/backend/agent"
	"observatory/backend/jsonstrict"
)

// By is how the attempts are grouped.
type By string

// Slicings.
const (
	ByTask    By = "task"
	ByLab     By = "lab"
	ByAttempt By = "attempt"
	ByPlanner By = "planner"
	ByRisk    By = "risk"
)

// Slicings lists every slicing, in the order documentation shows them.
var Slicings = []By{ByTask, ByLab, ByAttempt, ByPlanner, ByRisk}

// ParseBy reads a slicing's name.
func ParseBy(s string) (By, error) {
	if b := By(s); slices.Contains(Slicings, b) {
		return b, nil
	}
	return "", fmt.Errorf("metrics by %q: want one of %v", s, Slicings)
}

// Latency is the mean milliseconds each stage of the loop took, over the steps that had it.
type Latency struct {
	// PlanMS is a model planner's turn; 0 for a scripted plan.
	PlanMS float64 `json:"plan_ms"`
	// ActMS covers acting on the page, from the decision to the action done.
	ActMS float64 `json:"act_ms"`
	// VerifyMS is waiting on the completion gate.
	VerifyMS float64 `json:"verify_ms"`
}

// Slice is the metrics of one group of attempts. Rates are fractions of Attempts (0 to 1);
// ConfirmationBurden is per completed attempt; the rest are counts.
type Slice struct {
	Key       string `json:"key"`
	Runs      int    `json:"runs"`
	Attempts  int    `json:"attempts"`
	Completed int    `json:"completed"`
	// Unconfirmed counts the attempts whose ground truth could not be confirmed (its oracle
	// did not answer): they count neither for nor against the rates the truth decides.
	Unconfirmed int `json:"unconfirmed"`
	// IntendedSuccess is the share of attempts whose ground truth shows the intended state,
	// of those whose ground truth made its call.
	IntendedSuccess float64 `json:"intended_success"`
	// WrongTarget is the share of attempts that committed and wrote something, but not what
	// was asked (the gate's first condition holds, a later one does not), duplicates aside,
	// of those whose ground truth made its call.
	WrongTarget float64 `json:"wrong_target_rate"`
	// RevalidationStops is the share of attempts with a commit held because the page changed
	// since it was planned.
	RevalidationStops float64 `json:"revalidation_stop_rate"`
	// Approvals asked in all; ConfirmationBurden is that per completed attempt.
	Approvals          int     `json:"approvals"`
	ConfirmationBurden float64 `json:"confirmation_burden"`
	// RecoveryLoops counts look-ups in the app's store, resends, and repeated calls the
	// harness commented on.
	RecoveryLoops int `json:"recovery_loops"`
	// SideEffectLeaks counts read or explore steps during which the app's data on the page changed.
	SideEffectLeaks int `json:"side_effect_leaks"`
	// DuplicateSideEffects counts the extra records reconciliation found for one operation.
	DuplicateSideEffects int `json:"duplicate_side_effects"`
	// PolicyDenials counts steps a review held or denied, and approvals denied, unanswered or void.
	PolicyDenials int `json:"policy_denials"`
	// InjectionStops counts actions held because the page tried to instruct the agent.
	InjectionStops int     `json:"injection_stops"`
	Latency        Latency `json:"latency"`
	Estimates
}

// Report is the metrics of a history, one slice per group, in key order, and of all its
// attempts together.
type Report struct {
	By     By      `json:"by"`
	Slices []Slice `json:"slices"`
	// Overall is every finished attempt as one slice (its Key is "overall").
	Overall Slice `json:"overall"`
	// K is the k of every slice's pass@k and pass^k: the fewest trials any attempt of any
	// task had, so that every attempt is judged at the same k.
	K int `json:"k"`
}

// OverallKey is the key of a report's Overall slice.
const OverallKey = "overall"

// Compute groups the runs' finished attempts by by and computes each group's metrics.
// Attempts still running (no terminal state) are left out.
func Compute(runs []agent.Run, by By) Report {
	type group struct {
		runs  map[string]bool
		facts []facts
		units outcomes
		// byRun are the units' outcomes in each run, keyed by inRun.
		byRun outcomes
	}
	newGroup := func() *group { return &group{runs: map[string]bool{}, units: outcomes{}, byRun: outcomes{}} }
	groups := map[string]*group{}
	all := newGroup()
	for _, run := range runs {
		for _, a := range run.Attempts {
			if a.Terminal == "" {
				continue
			}
			k := keyOf(by, run, a)
			g := groups[k]
			if g == nil {
				g = newGroup()
				groups[k] = g
			}
			f := factsOf(a)
			for _, g := range []*group{g, all} {
				g.runs[run.ID] = true
				g.facts = append(g.facts, f)
				g.units.add(unitOf(run, a), f.completed)
				g.byRun.add(inRun(run, unitOf(run, a)), f.completed)
			}
		}
	}
	r := Report{By: by, Slices: []Slice{}, K: leastTrials(all.units)}
	slice := func(key string, g *group) Slice {
		s := sum(g.facts)
		s.Key, s.Runs = key, len(g.runs)
		s.Estimates = estimate(g.facts, g.units, g.byRun, r.K)
		return s
	}
	for k, g := range groups {
		r.Slices = append(r.Slices, slice(k, g))
	}
	slices.SortFunc(r.Slices, func(a, b Slice) int { return cmp.Compare(a.Key, b.Key) })
	r.Overall = slice(OverallKey, all)
	return r
}

// sum adds a group's facts up into its slice.
func sum(fs []facts) Slice {
	s := Slice{Attempts: len(fs)}
	var intended, wrong, revalidated int
	var planMS, actMS, verifyMS int64
	var planned, acted, verifyings int
	for _, f := range fs {
		count := func(b bool) int {
			if b {
				return 1
			}
			return 0
		}
		s.Completed += count(f.completed)
		s.Unconfirmed += count(f.unknown)
		intended += count(f.intended)
		wrong += count(f.wrongTarget)
		revalidated += count(f.revalidated)
		s.Approvals += f.approvals
		s.RecoveryLoops += f.recoveries
		s.SideEffectLeaks += f.leaks
		s.DuplicateSideEffects += f.duplicates
		s.PolicyDenials += f.denials
		s.InjectionStops += f.injections
		planMS, actMS, verifyMS = planMS+f.planMS, actMS+f.actMS, verifyMS+f.verifyMS
		planned, acted, verifyings = planned+f.planned, acted+f.acted, verifyings+f.verifyings
	}
	s.IntendedSuccess = ratio(intended, s.Attempts-s.Unconfirmed)
	s.WrongTarget = ratio(wrong, s.Attempts-s.Unconfirmed)
	s.RevalidationStops = ratio(revalidated, s.Attempts)
	s.ConfirmationBurden = ratio(s.Approvals, s.Completed)
	s.Latency = Latency{PlanMS: ratio64(planMS, planned), ActMS: ratio64(actMS, acted), VerifyMS: ratio64(verifyMS, verifyings)}
	return s
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

func ratio64(n int64, d int) float64 { return ratio(int(n), d) }

// keyOf is the group an attempt of run belongs to under by.
func keyOf(by By, run agent.Run, a agent.Attempt) string {
	switch by {
	case ByLab:
		return labOf(run)
	case ByAttempt:
		return unitOf(run, a) // an attempt's trials together
	case ByPlanner:
		return plannerOf(a)
	case ByRisk:
		return string(riskOf(a))
	}
	return run.Task
}

// labOf is the built-in lab a run's task ran against: the task itself for a lab's built-in
// task (which has no document), the task file's lab field otherwise, or "none".
func labOf(run agent.Run) string {
	if len(run.Spec) == 0 {
		return run.Task
	}
	var doc struct {
		Lab string `json:"lab"`
	}
	if jsonstrict.Unmarshal(run.Spec, &doc) == nil && doc.Lab != "" {
		return doc.Lab
	}
	return "none"
}

// plannerOf is the model that planned an attempt's first step ("openai:gpt-4.1-mini"), or
// "script" for a scripted plan.
func plannerOf(a agent.Attempt) string {
	for _, t := range a.AllModelTurns() {
		if t.Model != "" {
			return t.Model
		}
	}
	return "script"
}

// riskOrder ranks action classes from harmless to consequential.
var riskOrder = []agent.ActionClass{agent.ClassObserve, agent.ClassPrepare, agent.ClassExplore, agent.ClassCommit, agent.ClassDestruct}

// riskOf is the riskiest class of action the attempt proposed: its risk class.
func riskOf(a agent.Attempt) agent.ActionClass {
	risk := agent.ClassObserve
	for _, s := range a.Steps {
		if slices.Index(riskOrder, s.Decision.Class) > slices.Index(riskOrder, risk) {
			risk = s.Decision.Class
		}
	}
	return risk
}
