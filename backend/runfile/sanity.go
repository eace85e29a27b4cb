package runfile

import (
	"reflect"
	"time"

	"observatory/backend/agent"
	"observatory/backend/termsafe"
)

// MaxClockSkew is how far past this machine's clock a file's times may lie: another
// machine's clock may run ahead, but no run was created or exported a day from now.
const MaxClockSkew = 24 * time.Hour

// checkSanity refuses what no recording can hold, with its path: an attempt slug outside
// termsafe's safe set, a creation, export or start time after now plus MaxClockSkew (a run
// dated 9999-12-31 would sit at the top of the history forever), a negative time or
// duration, a Jaccard distance outside 0 to 1, a target box or candidates no page can have
// (see saneTarget), a negative run budget, a task authority the task file format would
// refuse, a trial number out of range or not its slug's, more relevant texts in a sample than
// a task may declare, a browser log over agent.MaxBrowserLog bytes, and an agent's claim
// agent.Claim.Validate refuses.
func (f File) checkSanity(now time.Time) *Error {
	latest := now.Add(MaxClockSkew)
	if err := notFuture("exported", f.Exported, latest); err != nil {
		return err
	}
	if err := notFuture("run.created", f.Run.Created, latest); err != nil {
		return err
	}
	if err := saneBudgets("run.budgets", f.Run.Budgets); err != nil {
		return err
	}
	for i, a := range f.Run.Attempts {
		p := index("attempts", i)
		if err := termsafe.ValidSlug(a.Slug); err != nil {
			return refuse(child(p, "attempt"), "%v", err)
		}
		if err := saneTrial(child(p, "trial"), a.Slug, a.Trial); err != nil {
			return err
		}
		if err := notFuture(child(p, "started"), a.Started, latest); err != nil {
			return err
		}
		if len(a.BrowserLog) > agent.MaxBrowserLog {
			return refuse(child(p, "browser_log"), "%d bytes, over the %d KiB a browser log may hold", len(a.BrowserLog), agent.MaxBrowserLog>>10)
		}
		if a.Claim != nil {
			if err := a.Claim.Validate(); err != nil {
				return refuse(child(p, "claim"), "%v", err)
			}
		}
		if err := saneSize(child(p, "viewport"), a.Viewport); err != nil {
			return err
		}
		if _, err := agent.ParseEvidence(string(a.EvidenceLevel)); err != nil {
			return refuse(child(p, "evidence"), "%v", err)
		}
		if err := a.Task.Authority.Validate(); err != nil {
			return refuse(child(child(p, "task"), "authority"), "%v", err)
		}
		for j, e := range a.Events {
			if err := notNegative(child(index(child(p, "events"), j), "at_ms"), e.AtMS); err != nil {
				return err
			}
		}
		for j, s := range a.Steps {
			sp := index(child(p, "steps"), j)
			if s.Index != j { // the executor numbers its steps from 0, one after another
				return refuse(child(sp, "index"), "step %d is the attempt's step %d: steps are numbered from 0, in order", s.Index, j)
			}
			if err := saneStep(sp, s); err != nil {
				return err
			}
			if err := saneProvenance(sp, s); err != nil {
				return err
			}
		}
	}
	return nil
}

// saneProvenance checks that a step is proposed or observed, and that an observed one
// carries nothing only a proposal has: no reason, model turns or decision, and approvals
// only of requests its page sent that were held at the network, which no commit of the
// executor's used (none void or with a commit hash).
func saneProvenance(p string, s agent.Step) *Error {
	switch s.Provenance {
	case agent.Proposed:
		if s.Evidence != "" {
			return refuse(child(p, "evidence"), "only an observed step says what its evidence cannot vouch for")
		}
		return nil
	case agent.Observed:
	default:
		return refuse(child(p, "provenance"), "%q is neither absent (proposed) nor %q", s.Provenance, agent.Observed)
	}
	if s.Reason != "" || len(s.ModelTurns) > 0 || !reflect.DeepEqual(s.Decision, agent.Decision{}) {
		return refuse(child(p, "decision"), "an observed step has no proposal or decision, but this one carries one")
	}
	for i, a := range s.Approvals {
		if a.Void || a.CommitHash != "" {
			return refuse(index(child(p, "approvals"), i), "an observed step's approvals are of requests held at the network, which no commit of Observatory's used, but this one was used at a commit")
		}
	}
	return nil
}

// saneStep checks one step's times, facts and distance, and its target box and candidates.
func saneStep(p string, s agent.Step) *Error {
	for _, n := range []struct {
		path string
		v    int64
	}{
		{child(p, "start_ms"), s.StartMS}, {child(p, "duration_ms"), s.DurationMS},
		{child(child(p, "before"), "at_ms"), s.Before.AtMS}, {child(child(p, "after"), "at_ms"), s.After.AtMS},
	} {
		if err := notNegative(n.path, n.v); err != nil {
			return err
		}
	}
	if ms := s.Action.TimeoutMS; ms < 0 || ms > agent.MaxActionTimeoutMS {
		return refuse(child(child(p, "action"), "timeout_ms"), "%d ms: an action's timeout is from 0 to %d ms", ms, agent.MaxActionTimeoutMS)
	}
	for _, side := range []struct {
		name string
		s    agent.Sample
	}{{"before", s.Before}, {"after", s.After}} {
		sp := child(p, side.name)
		if len(side.s.Facts) > agent.MaxRelevant {
			return refuse(child(sp, "facts"), "%d facts: a task declares at most %d relevant texts", len(side.s.Facts), agent.MaxRelevant)
		}
		if len(side.s.Frames) > agent.MaxFrameViews {
			return refuse(child(sp, "frames"), "%d frames: a sample shows at most %d", len(side.s.Frames), agent.MaxFrameViews)
		}
		for j, f := range side.s.Frames {
			if len(f.Path) == 0 || len(f.Path) > agent.MaxFrameDepth {
				return refuse(child(index(child(sp, "frames"), j), "path"), "%d frames down: want 1 to %d", len(f.Path), agent.MaxFrameDepth)
			}
		}
		if len(side.s.Notices) > agent.MaxNotices {
			return refuse(child(sp, "notices"), "%d notices: a task names at most %d", len(side.s.Notices), agent.MaxNotices)
		}
		if err := saneSize(child(sp, "viewport"), side.s.Viewport); err != nil {
			return err
		}
		if err := saneSize(child(sp, "screenshot_size"), side.s.ScreenshotSize); err != nil {
			return err
		}
		if r := side.s.PixelRatio; !agent.ValidPixelRatio(r) {
			return refuse(child(sp, "pixel_ratio"), "%v: a pixel ratio is 1 to %d", r, agent.MaxPixelRatio)
		}
	}
	if !(s.Distance >= 0 && s.Distance <= 1) {
		return refuse(child(p, "distance"), "distance %v: a Jaccard distance lies between 0 and 1", s.Distance)
	}
	return saneTarget(p, s)
}

// saneBudgets refuses a negative budget.
func saneBudgets(p string, b *agent.Budgets) *Error {
	if b == nil {
		return nil
	}
	if err := b.Validate(); err != nil {
		return refuse(p, "%v", err)
	}
	return nil
}

// notFuture refuses a time after latest.
func notFuture(path string, t, latest time.Time) *Error {
	if t.After(latest) {
		return refuse(path, "%s is in the future (more than %v past this machine's clock)", t.Format(time.RFC3339), MaxClockSkew)
	}
	return nil
}

// notNegative refuses a negative number of milliseconds.
func notNegative(path string, ms int64) *Error {
	if ms < 0 {
		return refuse(path, "%d ms: a time or duration in milliseconds is never negative", ms)
	}
	return nil
}

// saneTrial refuses a trial number below 0 or over agent.MaxTrials, or one the slug does not
// end in (trial 2 of an attempt is named "slug.t2").
func saneTrial(p string, slug string, trial int) *Error {
	switch {
	case trial < 0 || trial > agent.MaxTrials:
		return refuse(p, "trial %d: want 1 to %d, or none", trial, agent.MaxTrials)
	case trial > 0 && agent.TrialSlug(agent.BaseSlug(slug, trial), trial) != slug:
		return refuse(p, "trial %d of attempt %q: a trial's slug ends in .t%d", trial, slug, trial)
	}
	return nil
}
