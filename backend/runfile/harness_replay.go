package runfile

import (
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/harness"
)

// The harness's records are recomputed on replay as the verdicts are: each classification
// from the action and the page it was decided on, each approval's hash from its recorded
// details, and each reconciliation's answer and outcome from the app's log of look-ups.

// contracts recomputes each recorded classification (harness.Classify is a pure function of
// the action and the page before it) and flags a contract or class that differs.
func (d *differ) contracts(steps []agent.Step) {
	for _, s := range steps {
		if s.Decision.Contract == "" { // decided by no classifier (a policy that failed)
			continue
		}
		c := harness.Classify(s.Action, s.Before)
		if c.Contract != s.Decision.Contract || c.Class != s.Decision.Class {
			d.add(fmt.Sprintf("contract (step %d)", s.Index+1), fmt.Sprintf("%s, %s", s.Decision.Contract, s.Decision.Class),
				fmt.Sprintf("%s, %s (%s)", c.Contract, c.Class, c.Why))
		}
	}
}

// approvals recomputes each approval request's hash from its recorded details, and checks
// what the executor recorded at the commit: an approval used by the commit was made on the
// details observed there (its commit hash is its own hash), a void one on other details, and
// the request asked after a void one states the details that voided it.
func (d *differ) approvals(steps []agent.Step) {
	for _, s := range steps {
		for i, a := range s.Approvals {
			name := fmt.Sprintf("approval (step %d, request %d)", s.Index+1, i+1)
			q := a.Request
			if got := q.DetailsHash(); got != q.Hash {
				d.add(name+" hash", q.Hash, got+" (from the request's details)")
			}
			if a.Answer != agent.AnswerApprove || a.CommitHash == "" {
				continue
			}
			switch {
			case !a.Void && a.CommitHash != q.Hash:
				d.add(name+" at the commit", "approved, and used by the commit",
					fmt.Sprintf("the details at the commit hash to %s, not the approved %s: the commit ran on details nobody approved", a.CommitHash, q.Hash))
			case a.Void && a.CommitHash == q.Hash:
				d.add(name+" at the commit", "void", "the details at the commit are the approved ones: nothing voided it")
			case a.Void && i+1 < len(s.Approvals) && s.Approvals[i+1].Request.Hash != a.CommitHash:
				d.add(fmt.Sprintf("approval (step %d, request %d)", s.Index+1, i+2), "asked again with the changed details",
					fmt.Sprintf("its details hash to %s, but those that voided request %d hash to %s", s.Approvals[i+1].Request.Hash, i+1, a.CommitHash))
			}
		}
	}
}

// reconciliations checks each recorded reconciliation against the app's log: the look-up of
// its operation the store answered (the first not yet matched, in order) and the count it
// found, and its outcome against what that count settles (see agent.OutcomeOf).
func (d *differ) reconciliations(steps []agent.Step, lookUps []agent.LookUp, logged bool) {
	used := make([]bool, len(lookUps))
	for i, s := range steps {
		rec := s.Reconciliation
		if rec == nil {
			continue
		}
		name := fmt.Sprintf("reconciliation (step %d)", s.Index+1)
		if logged {
			j := -1
			for k, l := range lookUps {
				if !used[k] && l.OpID == rec.OpID {
					j = k
					break
				}
			}
			switch {
			case j < 0:
				d.add(name, fmt.Sprintf("found operation %s %d time(s)", rec.OpID, rec.Found), "the app's log records no look-up of it")
			case lookUps[j].Found != rec.Found:
				d.add(name, fmt.Sprintf("found operation %s %d time(s)", rec.OpID, rec.Found),
					fmt.Sprintf("the store answered %d (the app's log)", lookUps[j].Found))
			}
			if j >= 0 {
				used[j] = true
			}
		}
		if rec.Outcome == "" { // the look-up failed: nothing was concluded
			continue
		}
		retried := rec.Retry != nil && i+1 < len(steps) && sameCall(steps[i+1].Action, *rec.Retry)
		if want := agent.OutcomeOf(rec.Found, retried); rec.Outcome != want {
			d.add(name+" outcome", rec.Outcome, fmt.Sprintf("%s (found %d, %s)", want, rec.Found, retriedText(retried)))
		}
	}
}

// sameCall reports whether a and b are the same call: tool, target and value.
func sameCall(a, b agent.Action) bool {
	return a.Kind == b.Kind && a.Target == b.Target && a.Value == b.Value
}

func retriedText(retried bool) string {
	if retried {
		return "the next step sends it again"
	}
	return "nothing sent again"
}
