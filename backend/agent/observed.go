package agent

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"
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
	// At is when it happened, as the browser says; zero when unknown.
	At time.Time
	// Before is the page as it was when it happened, read in the page before the input's
	// default action (without a screenshot); nil when it could not be read.
	Before *Sample
	// Tab numbers the page it was made in, in the order the pages were watched: 0 is the
	// attempt's page.
	Tab int
	// ByScript is set for an input the browser did not report as a user's: a select's choice
	// made by script, as clients make it (Puppeteer's select, Playwright's selectOption).
	ByScript bool
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
	// InputsMade is how many inputs were made before the call, all of which the channel
	// delivers (none still on its way from a page is missed), and the earliest input under
	// way and not reported yet (typing begun: its time and the page then), nil for none.
	InputsMade(ctx context.Context) (int, *Input)
}

// InputAhead is a Driven planner that knows the input after the one it returned last, once it
// has been made: an observed step's after is the page as that input found it, and its
// requests those sent before it.
type InputAhead interface {
	// Following is the next input when it was made before the call (none still on its way
	// from a page is missed), nil when none was; it stays the planner's next proposal. An
	// input under way (typing begun) is returned with its time and the page then only.
	Following(ctx context.Context) *Input
}

// What an observed step says when Observatory cannot vouch for its evidence.
const (
	lateBefore = "looked late: the page before this input could not be read as it happened; its before is the page as last observed"
	lateAfter  = "looked late: the page may already show the next input's effects"
	bySelect   = "the browser reported this choice as made by script (as clients choose options), which the page's own scripts can do too; its before was read as the choice was announced, so it shows the option chosen"
)

// observedStep records an input an outside agent already made as step i. Its evidence is keyed
// on the browser's times: its before is the page as the recorder read it when the input
// happened, before its default action (the page as last observed, grounding, when it could
// not be read); its after is the page as the next input found it when one followed (see
// InputAhead), else the page once settled; its requests are those sent between the two
// inputs. Nothing is decided and nothing is done; the step's navigation counts against the
// budgets all the same. A non-empty terminal ends the attempt.
func (r *run) observedStep(i int, in Input, grounding Sample) (s Step, term Terminal, reason string) {
	a := in.Action()
	s = Step{Index: i, Action: a, Provenance: Observed, Before: grounding, After: grounding, TargetBox: in.Box,
		StartMS: r.sinceStart()}
	var notes []string
	if in.Before != nil {
		s.Before = r.stampAt(in.Before, in.At)
		s.StartMS = s.Before.AtMS
	} else {
		notes = append(notes, lateBefore)
	}
	if in.ByScript {
		notes = append(notes, bySelect)
	}
	r.cutOpening(in)
	defer func() {
		s.Evidence = strings.Join(notes, "; ")
		if s.DurationMS < 0 {
			s.DurationMS = max(r.sinceStart()-s.StartMS, 0)
		}
	}()
	s.DurationMS = -1
	spend := Spend{Steps: 1}
	if in.Kind == ActNavigate {
		spend.Navigations = 1
	}
	if e := r.charge(spend); e != nil {
		r.err = e
		s.Error = e.Error()
		return s, Exhausted, fmt.Sprintf("step %d (%s, observed): %v", i+1, a.Description, e)
	}
	if err := r.lookAfter(&s, false, &in, &notes); err != nil {
		term, err = r.fail(err, ClassObserve)
		s.Error = err.Error()
		return s, term, fmt.Sprintf("step %d (%s, observed): observing the result failed: %v", i+1, a.Description, err)
	}
	return s, "", ""
}

// cutOpening records, at an outside agent's first input, what the pages sent before it (the
// start page's load) as the attempt's opening: it belongs to no input.
func (r *run) cutOpening(in Input) {
	tw, ok := r.page.(TimedWatcher)
	if len(r.steps) > 0 || in.At.IsZero() || !ok {
		return
	}
	if t := tw.TrafficUntil(r.start, in.At).Redact(r.secrets); !reflect.DeepEqual(t, Traffic{}) {
		r.opening = &t
	}
}

// stampAt numbers a sample the page read at at (a time the browser gave) for the record, once:
// a sample already numbered (the after of the step before) keeps its number.
func (r *run) stampAt(s *Sample, at time.Time) Sample {
	if s.Seq == 0 {
		r.observed++
		*s = s.Redact(r.secrets)
		s.Seq, s.AtMS = r.observed, max(at.Sub(r.start).Milliseconds(), 0)
	}
	return *s
}

// lookAfter observes the page after what an agent did unseen for s: the answers to the
// requests held meanwhile (the page settles only once they are answered), the page (once
// its requests are answered, when final, or when no input followed in), what the network
// refused and transferred, and the traffic since the last step (all of it, its last requests
// included, when final; that sent before the next input, when one followed in). When the
// next input was made before the page could be looked at, the page as it found it is s's
// after, and no look is taken. notes gets what s cannot vouch for. An error leaves s.After
// the grounding sample.
func (r *run) lookAfter(s *Step, final bool, in *Input, notes *[]string) error {
	held := r.heldAnswers()
	next := r.following(in)
	// found is the page as the next input found it, when it is this page as it was read there.
	found := func() bool { return next != nil && next.Before != nil && next.Tab == in.Tab }
	var after Sample
	var err error
	if !found() {
		if w, ok := r.page.(Settler); ok && (final || in != nil && next == nil) {
			w.Settle(r.ctx)
		}
		late := next != nil // the next input came first, and its page cannot stand in
		observe := r.observe
		if final {
			observe = r.observeFramed // the last look is pictured at any evidence level
		}
		after, err = observe()
		if next == nil && err == nil {
			next = r.following(in) // made while the page was looked at?
		}
		if (late || next != nil) && !found() {
			*notes = append(*notes, lateAfter)
		}
	}
	s.Approvals = append(held, r.heldAnswers()...)
	s.Blocked, s.Transfers = r.page.Blocked(), r.page.Transfers()
	if w, ok := r.page.(Watcher); ok {
		if tw, ok := r.page.(TimedWatcher); ok && next != nil && !next.At.IsZero() {
			s.Traffic = tw.TrafficUntil(r.start, next.At).Redact(r.secrets)
		} else {
			s.Traffic = w.Traffic(r.start, final).Redact(r.secrets)
		}
	}
	if next != nil && next.Before != nil && next.Tab == in.Tab {
		after, err = r.stampAt(next.Before, next.At), nil
		s.DurationMS = max(after.AtMS-s.StartMS, 0)
	}
	if err != nil {
		return err
	}
	s.After = after
	s.Distance = JaccardDistance(s.Before.Pairs, s.After.Pairs)
	return nil
}

// following is the input made after in, when one was (see InputAhead); nil for none or when
// the planner cannot tell.
func (r *run) following(in *Input) *Input {
	if in == nil {
		return nil
	}
	if la, ok := r.planner.(InputAhead); ok {
		return la.Following(r.ctx)
	}
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
	if err := r.lookAfter(&s, true, nil, nil); err != nil {
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
