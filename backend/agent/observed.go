package agent

import (
	"context"
	"fmt"
)

// Provenance says where a step's action came from.
type Provenance string

// The provenances of a step.
const (
	// Proposed is an action a planner proposed and policy decided on before it ran: every
	// step of Observatory's own planner, a scripted plan or an MCP client. It is the zero
	// value, so steps recorded before provenance existed are proposed.
	Proposed Provenance = ""
	// Observed is an action an outside agent process took in the page on its own, seen from
	// outside: it has no proposal and no decision, only the page before and after.
	Observed Provenance = "observed"
)

// Input is one input an outside agent made in a page, as the page saw it: a click, a fill, a
// select, a key press, or a navigation it started.
type Input struct {
	// Kind is ActClick, ActFill, ActSelect, ActPress or ActNavigate.
	Kind ActionKind
	// Target is the element's role and accessible name; zero for a navigation.
	Target Target
	// Value is what was filled, selected or pressed, or the URL navigated to.
	Value string
	// Box is where the element was when the input landed; nil for a navigation.
	Box *Box
	// URL is the page's address when the input landed.
	URL string
}

// Action is the input as an action that would do it again, described in words.
func (in Input) Action() Action {
	a := Action{Kind: in.Kind, Target: in.Target, Value: in.Value}
	switch in.Kind {
	case ActNavigate:
		a.Description = "Go to " + in.Value
	case ActFill:
		a.Description = fmt.Sprintf("Fill %s", in.Target)
	case ActSelect:
		a.Description = fmt.Sprintf("Select %q in %s", in.Value, in.Target)
	case ActPress:
		a.Description = fmt.Sprintf("Press %s on %s", in.Value, in.Target)
	default:
		a.Description = fmt.Sprintf("%s %s", in.Kind, in.Target)
	}
	return a
}

// Handover is a Page an outside agent process can drive on its own: it offers the browser's
// DevTools endpoint and reports the inputs made in the page and in every page its context
// opens. Watching only reads: it never changes the page's viewport, emulation or timing.
type Handover interface {
	// DevToolsURL is the browser's DevTools endpoint, http://127.0.0.1:PORT; empty when the
	// browser offers none.
	DevToolsURL() string
	// WatchInputs starts recording inputs and returns them in the order they happened; the
	// channel closes once ctx ends.
	WatchInputs(ctx context.Context) (<-chan Input, error)
}

// observedStep records an input an outside agent already made as step i: grounding, the page as
// last observed, is its before sample (the agent acted between two looks, unseen), and the
// page is observed again for its after. Nothing is decided and nothing is done; the step's
// navigation counts against the budgets all the same. A non-empty terminal ends the attempt.
func (r *run) observedStep(i int, in Input, grounding Sample) (s Step, term Terminal, reason string) {
	a := in.Action()
	s = Step{Index: i, Action: a, Provenance: Observed, Before: grounding, After: grounding, TargetBox: in.Box,
		StartMS: r.sinceStart()}
	t0 := r.x.now()
	defer func() { s.DurationMS = r.x.now().Sub(t0).Milliseconds() }()
	spend := Spend{Steps: 1}
	if in.Kind == ActNavigate {
		spend.Navigations = 1
	}
	if e := r.charge(spend); e != nil {
		r.err = e
		s.Error = e.Error()
		return s, Exhausted, fmt.Sprintf("step %d (%s, observed): %v", i+1, a.Description, e)
	}
	if err := r.lookAfter(&s, false); err != nil {
		term, err = r.fail(err, ClassObserve)
		s.Error = err.Error()
		return s, term, fmt.Sprintf("step %d (%s, observed): observing the result failed: %v", i+1, a.Description, err)
	}
	return s, "", ""
}

// lookAfter observes the page after what an agent did unseen for s: the answers to the
// requests held meanwhile (the page settles only once they are answered), the page (once
// its requests are answered, when final), what the network refused and transferred, and
// the traffic since the last step (all of it, its last requests included, when final). An
// error leaves s.After the grounding sample.
func (r *run) lookAfter(s *Step, final bool) error {
	held := r.heldAnswers()
	if w, ok := r.page.(Settler); ok && final {
		w.Settle(r.ctx)
	}
	observe := r.observe
	if final {
		observe = r.observeFramed
	}
	after, err := observe()
	s.Approvals = append(held, r.heldAnswers()...)
	s.Blocked, s.Transfers = r.page.Blocked(), r.page.Transfers()
	if w, ok := r.page.(Watcher); ok {
		s.Traffic = w.Traffic(r.start, final).Redact(r.secrets)
	}
	if err != nil {
		return err
	}
	s.After = after
	s.Distance = JaccardDistance(s.Before.Pairs, s.After.Pairs)
	return nil
}

// agentLeft records, as the attempt's last step, the page as an agent acting unseen (an
// outside agent process) left it, once it has ended: the traffic its pages had since its
// last observed input and the answers to the requests held meanwhile, which no step would
// hold otherwise, and the page once its requests are answered. It is the harness's own
// look, as verify is (a rerun waits on the gate there), and it sends nothing. Nothing is
// recorded for any other planner, or once the attempt was stopped or its page is gone.
func (r *run) agentLeft(i int, grounding Sample) {
	if _, ok := r.planner.(Unseen); !ok || r.ctx.Err() != nil || r.gone() != nil {
		return
	}
	s := Step{Index: i, Action: Action{ID: "verify", Description: "Verify the state the agent left", Kind: ActVerify},
		Decision: Decision{Class: ClassObserve, Admission: Allow, Contract: ContractControl,
			Reason: "the agent has ended: what its pages did since its last observed input is recorded here; nothing is sent"},
		Before: grounding, After: grounding, StartMS: r.sinceStart()}
	t0 := r.x.now()
	if err := r.lookAfter(&s, true); err != nil {
		s.Error = "observing the page the agent left failed: " + err.Error()
	}
	s.DurationMS = r.x.now().Sub(t0).Milliseconds()
	s = s.masked(r.secrets)
	r.steps = append(r.steps, s)
	r.holds.stepRecorded(len(r.steps))
	if r.hooks.Step != nil {
		r.hooks.Step(s)
	}
}

// mayHaveCommitted is how an agent acting unseen that ended with err (a crash) is judged:
// when its pages sent a request that may change the app's state (Config.Mutations), a
// commit may have crossed, so err is a commit's, naming the last such request; otherwise it
// is an observation's.
func (r *run) mayHaveCommitted(err error) (error, ActionClass) {
	if _, ok := r.planner.(Unseen); !ok {
		return err, ClassObserve
	}
	n, last, step := r.cfg.Mutations(r.steps)
	if n == 0 {
		return err, ClassObserve
	}
	return fmt.Errorf("%w; before it ended, its pages sent %d request(s) that may change the app's state, the last %s %s (step %d), so a commit may have crossed",
		err, n, last.Method, last.URL, step+1), ClassCommit
}
