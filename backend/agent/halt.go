package agent

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrStopped is the cause a kill switch cancels runs with: the user stopped every run.
var ErrStopped = errors.New("stopped by the kill switch")

// settleTimeout bounds settling a commit left in flight by a stop: the app quiescing, the
// page observed and the store asked.
const settleTimeout = 10 * time.Second

// charge spends d against the attempt's budgets, then the run's, and returns the first that
// d would exhaust; nothing is spent then.
func (r *run) charge(d Spend) *ExhaustedError {
	if b := r.cfg.Budgets; b != nil {
		if e := b.Admit(ScopeAttempt, r.spent, d); e != nil {
			return e
		}
	}
	if e := r.pot.spend(d); e != nil {
		return e
	}
	r.spent = r.spent.plus(d)
	return nil
}

// mayPlan says whether the planner may be asked again: the attempt's and the run's tokens
// and money are not spent.
func (r *run) mayPlan() *ExhaustedError {
	if b := r.cfg.Budgets; b != nil {
		if e := b.MayPlan(ScopeAttempt, r.spent); e != nil {
			return e
		}
	}
	return r.pot.mayPlan()
}

// halted says how the attempt ends when its context was ended by the caller rather than by
// the page's death: Exhausted when a wall-clock or run budget ended it, else Cancelled, with
// a few words of why. It returns "" while the context lives, or when the page died.
func (r *run) halted() (Terminal, string) {
	if !r.cancelled() {
		return "", ""
	}
	cause := context.Cause(r.ctx)
	switch {
	case errors.Is(cause, ErrExhausted):
		return Exhausted, cause.Error()
	case cause == nil || errors.Is(cause, context.Canceled) && !errors.Is(cause, ErrStopped):
		return Cancelled, "cancelled"
	}
	return Cancelled, "cancelled (" + cause.Error() + ")"
}

// settleStopped settles a commit that was in flight when the attempt was stopped or ran out
// of budget. Such a commit is ambiguous until reconciled: with a reconciling policy and an
// app that offers a look-up, once the app has quiesced the executor asks its store about the
// operation and records the look-up as a step of its own. Found nowhere, the attempt keeps
// how it was stopped; found once, it says the commit landed; found more than once, the
// extra records are a side effect; a look-up that cannot answer leaves it Ambiguous.
// Without a look-up the attempt keeps its state, and the final state's verdicts (see
// Reconcile) say whether the effect landed.
func (r *run) settleStopped(t Terminal, reason string) (Terminal, string) {
	rc, ok := r.x.Policy.(Reconciling)
	env, isRec := r.env.(Reconciler)
	if !ok || !rc.Reconciles() || !isRec {
		return t, reason
	}
	ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
	defer cancel()
	reason += "; a commit was in flight, so the attempt was ambiguous until reconciled"
	s := Step{Index: len(r.steps), StartMS: r.sinceStart(),
		Action: Action{ID: "reconcile", Description: "Reconcile the commit in flight when the attempt stopped", Kind: ActVerify},
		Decision: Decision{Class: ClassObserve, Admission: Allow, Contract: ContractControl,
			Reason: "the attempt stopped with a commit in flight: its operation is looked up in the app's store, nothing is sent"}}
	t0 := r.x.now()
	defer func() {
		s.DurationMS = r.x.now().Sub(t0).Milliseconds()
		r.steps = append(r.steps, s)
		if r.hooks.Step != nil {
			r.hooks.Step(s)
		}
	}()
	if err := r.env.Quiesce(ctx); err != nil {
		s.Error = "the app did not settle: " + err.Error()
		return Ambiguous, reason + "; " + s.Error
	}
	after, err := r.page.Observe(ctx)
	if err != nil {
		s.Error = "observing the page for the operation id failed: " + err.Error()
		return Ambiguous, reason + "; " + s.Error
	}
	after = r.stamp(after)
	s.Before, s.After = after.Redact(r.secrets), after.Redact(r.secrets)
	rec, err := env.Reconcile(ctx, after)
	rec.Retry = nil // a stopped attempt sends nothing again
	s.Reconciliation = &rec
	if err != nil {
		s.Error = "reconciling failed: " + err.Error()
		return Ambiguous, reason + "; " + s.Error
	}
	rec.Outcome = OutcomeOf(rec.Found, false)
	switch {
	case rec.Found == 0:
		return t, fmt.Sprintf("%s: operation %s is not in the store, nothing landed", reason, rec.OpID)
	case rec.Found == 1:
		return t, fmt.Sprintf("%s: the store holds operation %s once, the commit landed", reason, rec.OpID)
	}
	return t, fmt.Sprintf("%s: the store holds operation %s %d times, %d duplicate(s) are a side effect", reason, rec.OpID, rec.Found, rec.Found-1)
}
