package agent

import (
	"context"
	"fmt"
)

// Reconciler is an Environment that can look an operation up in the app's authoritative
// store, so that a commit whose response was lost or contradictory is settled by what the
// store holds rather than by sending it again.
type Reconciler interface {
	// Reconcile reads the operation id of the latest commit from s and asks the store how
	// many records it holds for it.
	Reconcile(ctx context.Context, s Sample) (Reconciliation, error)
}

// Reconciling is a Policy that settles ambiguous commits against the app's store before
// anything is retried. Without one the executor retries blindly, as a naive agent does.
type Reconciling interface {
	Policy
	Reconciles() bool
}

// Revalidating is a Policy that re-checks every commit immediately before it acts: the
// executor moves the pointer onto the commit's control, as a person would, observes the page
// again and has the policy decide once more; a page that reacted (a price re-quoted, another
// account) holds the commit. Without it the executor acts on the observation it decided on.
type Revalidating interface {
	Policy
	Revalidates() bool
}

// Reconciliation outcomes.
const (
	ReconciledCompleted = "completed" // found once: the commit landed
	ReconciledRetry     = "retry"     // not found: safe to retry, with the same operation id
	ReconciledFailed    = "failed"    // not found, and no retry left
	ReconciledDuplicate = "duplicate" // found more than once: the extra records are a side effect
)

// OutcomeOf is what a look-up that found the operation found times settles: completed once,
// a duplicate more than once, and, found nowhere, retry when the executor sends it again
// (retried) or failed when it does not. A replay recomputes recorded outcomes with it.
func OutcomeOf(found int, retried bool) string {
	switch {
	case found == 1:
		return ReconciledCompleted
	case found > 1:
		return ReconciledDuplicate
	case retried:
		return ReconciledRetry
	}
	return ReconciledFailed
}

// LookUp is one question an app's store answered about an operation: its id, and how many
// records it held for it.
type LookUp struct {
	OpID  string
	Found int
}

// LookUpLog is a Replayer whose event log records every look-up its store answered, so that
// a replay checks each recorded reconciliation against what the store really said.
type LookUpLog interface {
	// LookUps are the look-ups the events record, in order; an illegal log is an error.
	LookUps(events []Event) ([]LookUp, error)
}

// Reconciliation is one look-up of an ambiguous commit's operation in the app's store: the
// query, its answer, and what the executor concluded.
type Reconciliation struct {
	OpID string `json:"op_id"`
	// Query is the request asked ("GET /api/messages?op_id=op-1"); Answer its raw answer,
	// bounded.
	Query  string `json:"query"`
	Answer string `json:"answer"`
	// Found counts the records the store holds for the operation.
	Found   int    `json:"found"`
	Outcome string `json:"outcome"`
	// Retry is the app's control that sends the same operation again with the same id; nil
	// when the app offers none.
	Retry *Action `json:"retry,omitempty"`
}

// next is the queued proposal, when recovery queued one, or else the planner's.
func (r *run) next(obs Sample) (Proposal, error) {
	if len(r.queue) > 0 {
		p := r.queue[0]
		r.queue = r.queue[1:]
		return p, nil
	}
	return r.planner.Next(r.ctx, obs, r.steps)
}

// settleAmbiguous handles a verify step the app left Ambiguous after a commit. Without a
// reconciling policy it retries the commit blindly, while retries are left. With one it asks
// the app's store about the commit's operation: found once, the gate decides; not found, it
// retries once with the same operation id; found more than once, the extra records are
// reported as a side effect. An empty terminal means the queued steps run next.
func (r *run) settleAmbiguous(s *Step, reason string) (Terminal, string) {
	commit, ok := r.lastCommit()
	if !ok {
		return Ambiguous, reason
	}
	if rc, ok := r.x.Policy.(Reconciling); !ok || !rc.Reconciles() {
		if r.retries >= r.cfg.Retries {
			return Ambiguous, reason
		}
		if e := r.charge(Spend{Retries: 1}); e != nil {
			r.err = e
			return Exhausted, fmt.Sprintf("%s; not retried: %v", reason, e)
		}
		r.retry(commit, s.Action, "retry: "+reason)
		return "", ""
	}
	env, ok := r.env.(Reconciler)
	if !ok {
		return Ambiguous, reason + "; the app offers no look-up to reconcile it"
	}
	rec, err := env.Reconcile(r.ctx, s.After)
	if err != nil {
		return Ambiguous, fmt.Sprintf("%s; reconciling it failed: %v", reason, err)
	}
	defer func() { s.Reconciliation = &rec }()
	switch {
	case rec.Found == 1:
		rec.Outcome = OutcomeOf(rec.Found, false)
		if c := r.check(); !c.Gate.Done {
			return Failed, fmt.Sprintf("reconciled: the store holds operation %s once, but %s", rec.OpID, unmet(c.Gate))
		}
		return Completed, fmt.Sprintf("reconciled: the store holds operation %s once, and every completion condition holds", rec.OpID)
	case rec.Found == 0 && rec.Retry != nil && r.retries < r.cfg.Retries:
		if e := r.charge(Spend{Retries: 1}); e != nil {
			r.err = e
			rec.Outcome = OutcomeOf(rec.Found, false)
			return Exhausted, fmt.Sprintf("reconciled: operation %s is not in the store; not retried: %v", rec.OpID, e)
		}
		rec.Outcome = OutcomeOf(rec.Found, true)
		r.retry(*rec.Retry, s.Action, fmt.Sprintf("reconciled: operation %s is not in the store, so it is safe to send again with the same id", rec.OpID))
		return "", ""
	case rec.Found == 0:
		rec.Outcome = OutcomeOf(rec.Found, false)
		return Failed, fmt.Sprintf("reconciled: operation %s is not in the store: nothing was sent, and it is safe to retry", rec.OpID)
	}
	rec.Outcome = OutcomeOf(rec.Found, false)
	return Failed, fmt.Sprintf("reconciled: the store holds operation %s %d times: it was sent, and %d duplicate(s) are a side effect", rec.OpID, rec.Found, rec.Found-1)
}

// retry queues a, then verify, ahead of the planner, and counts the retry.
func (r *run) retry(a, verify Action, why string) {
	r.retries++
	r.settled = false
	r.queue = append(r.queue, Proposal{Action: a, Reason: why}, Proposal{Action: verify, Reason: "verify the retry"})
}

// lastCommit is the latest action that committed and ran without error.
func (r *run) lastCommit() (Action, bool) {
	for i := len(r.steps) - 1; i >= 0; i-- {
		s := r.steps[i]
		if s.Decision.Class.Commits() && s.Decision.Admission == Allow && s.Error == "" {
			return s.Action, true
		}
	}
	return Action{}, false
}
