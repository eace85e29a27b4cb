package runfile

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"observatory/backend/agent"
	"observatory/backend/harness"
)

// Verdict names used in Disagreement beside the signals' own IDs.
const (
	// VerdictTruth is the ground truth.
	VerdictTruth = "truth"
	// VerdictGate is the gate's overall call; "gate.ID" names one of its conditions.
	VerdictGate = agent.GateID
	// VerdictTerminal flags a terminal state the recomputed gate contradicts.
	VerdictTerminal = "terminal"
	// VerdictTask flags an attempt that claims a task other than the suite's.
	VerdictTask = "task"
)

// Disagreement is one recorded verdict, condition or piece of evidence that the recomputed
// one contradicts.
type Disagreement struct {
	Attempt    string `json:"attempt"`
	Verdict    string `json:"verdict"`
	Recorded   string `json:"recorded"`
	Recomputed string `json:"recomputed"`
}

// Result is a replayed run file.
type Result struct {
	// Run is the file's run with every verdict recomputed, status imported and source unset.
	// An attempt recorded as completed whose recomputed gate is not done becomes ambiguous.
	Run agent.Run
	// Disagreements lists, per attempt and per verdict, where the file was wrong.
	Disagreements []Disagreement
}

// Resolver finds the suite that judges a run: from the task document the run carries, or,
// when it carries none, a built-in lab's task by name. An error with a method
// InDocument() (path, reason string) that gives a path (a task file's error has one) is
// refused at that field of the carried document: run.spec.PATH.
type Resolver func(task string, spec json.RawMessage) (agent.Suite, error)

// Replay recomputes every verdict of every attempt with suite's judge, after replaying the
// events through the app's transition function where it has one. An illegal event order or
// evidence the judge cannot read is refused with an *Error.
func Replay(suite agent.Suite, f File) (Result, error) {
	if name := suite.Task().Name; f.Run.Task != name {
		return Result{}, refuse(runTaskPath(f.Schema), "the file is for task %q; replaying it needs that task, not %q", f.Run.Task, name)
	}
	res := Result{Run: f.importedRun()}
	for i, a := range f.Run.Attempts {
		v, dis, err := judge(suite, a, index("attempts", i))
		if err != nil {
			return Result{}, err
		}
		res.Disagreements = append(res.Disagreements, dis...)
		res.Run.Attempts[i] = corrected(a, suite.Task(), v)
	}
	return res, nil
}

// judge replays one attempt at path p and compares everything recorded with what is
// recomputed: the task, the truth, each signal, the gate and each of its conditions, the
// terminal state's consistency with the gate, and the harness's records (fingerprints,
// contracts, approvals, reconciliations).
func judge(suite agent.Suite, a agent.Attempt, p string) (agent.Verdicts, []Disagreement, error) {
	if r, ok := suite.(agent.Replayer); ok {
		if err := r.Replay(a.Events); err != nil {
			return agent.Verdicts{}, nil, refuse(child(p, "events"), "attempt %q: illegal event order: %v", a.Slug, err)
		}
	}
	v, err := agent.Judged(suite, a.Evidence())
	if err != nil {
		return agent.Verdicts{}, nil, refuse(p, "attempt %q cannot be judged from its evidence: %v", a.Slug, err)
	}
	d := differ{attempt: a.Slug}
	if want := suite.Task(); !sameTask(a.Task, want) {
		d.add(VerdictTask, taskText(a.Task), taskText(want)+" (the task's own)")
	}
	if !unjudged(a) {
		d.verdicts(a.Verdicts, v)
	}
	d.fingerprints(a.Steps)
	d.contracts(a.Steps)
	d.approvals(a.Steps)
	var lookUps []agent.LookUp
	l, logged := suite.(agent.LookUpLog)
	if logged {
		if lookUps, err = l.LookUps(a.Events); err != nil {
			return agent.Verdicts{}, nil, refuse(child(p, "events"), "attempt %q: its look-ups cannot be read: %v", a.Slug, err)
		}
	}
	d.reconciliations(a.Steps, lookUps, logged)
	switch {
	case a.Terminal == agent.Completed && !v.Gate.Done:
		d.add(VerdictTerminal, string(a.Terminal), "gate not done")
	case (a.Terminal == agent.Failed || a.Terminal == agent.Rejected) && v.Gate.Done:
		d.add(VerdictTerminal, string(a.Terminal), "gate done: the effect landed, so the attempt is at least ambiguous")
	}
	return v, d.found, nil
}

// unjudged reports whether a was never judged, so that its file records no verdict to check:
// an attempt its process left unfinished, exported as cancelled or ambiguous (see
// finishInterrupted). Any other terminal state claims verdicts, and they are checked.
func unjudged(a agent.Attempt) bool {
	v := a.Verdicts
	none := v.Truth == (agent.Signal{}) && len(v.Signals) == 0 && !v.Gate.Done && len(v.Gate.Conditions) == 0
	return none && (a.Terminal == agent.Cancelled || a.Terminal == agent.Ambiguous)
}

// verdicts compares the recorded verdicts rec with the recomputed ones got.
func (d *differ) verdicts(rec, got agent.Verdicts) {
	d.signal(VerdictTruth, rec.Truth, got.Truth)
	for _, g := range got.Signals {
		r, ok := rec.Signal(g.ID)
		if !ok {
			d.add(g.ID, "not recorded", doneText(g.Done))
			continue
		}
		d.signal(g.ID, r, g)
	}
	for _, r := range rec.Signals {
		if _, ok := got.Signal(r.ID); !ok {
			d.add(r.ID, doneText(r.Done), "no such signal in the task")
		}
	}
	d.gate(rec.Gate, got.Gate)
}

// differ collects one attempt's disagreements.
type differ struct {
	attempt string
	found   []Disagreement
}

func (d *differ) add(verdict, recorded, recomputed string) {
	d.found = append(d.found, Disagreement{Attempt: d.attempt, Verdict: verdict, Recorded: recorded, Recomputed: recomputed})
}

// verdict compares one call, then its evidence when the calls agree.
func (d *differ) verdict(name string, rec, got agent.Verdict) {
	switch {
	case rec.Done != got.Done:
		d.add(name, doneText(rec.Done), doneText(got.Done))
	case rec.Unconfirmed != got.Unconfirmed:
		d.add(name+" (could not confirm)", quoteOrNone(rec.Unconfirmed), quoteOrNone(got.Unconfirmed))
	case rec.Evidence != got.Evidence:
		d.add(name+" (evidence)", fmt.Sprintf("%q", rec.Evidence), fmt.Sprintf("%q", got.Evidence))
	}
}

// fingerprints recomputes each recorded decision fingerprint from the observation it was
// taken on (the step's before sample and the action's target) and flags one that differs.
func (d *differ) fingerprints(steps []agent.Step) {
	for _, s := range steps {
		rec := s.Decision.Observed
		if rec == nil {
			continue
		}
		if got := harness.Observe(s.Before, s.Action.Target); got != *rec {
			d.add(fmt.Sprintf("fingerprint (step %d)", s.Index+1), rec.Hash, got.Hash+" (from the step's before sample)")
		}
	}
}

func (d *differ) signal(name string, rec, got agent.Signal) {
	d.verdict(name, rec.Verdict, got.Verdict)
}

func (d *differ) gate(rec, got agent.Gate) {
	if rec.Done != got.Done {
		d.add(VerdictGate, doneText(rec.Done), doneText(got.Done))
	}
	recorded := make(map[string]agent.Condition, len(rec.Conditions))
	for _, c := range rec.Conditions {
		recorded[c.ID] = c
	}
	for _, c := range got.Conditions {
		name := VerdictGate + "." + c.ID
		r, ok := recorded[c.ID]
		if !ok {
			d.add(name, "not recorded", doneText(c.Done))
			continue
		}
		delete(recorded, c.ID)
		d.verdict(name, r.Verdict, c.Verdict)
	}
	for _, c := range rec.Conditions {
		if _, extra := recorded[c.ID]; extra {
			d.add(VerdictGate+"."+c.ID, doneText(c.Done), "no such condition in the task")
		}
	}
}

// corrected is a with the suite's task and verdicts v, each decision's fingerprint
// recomputed from its observation, and not completed unless v's gate is done.
func corrected(a agent.Attempt, task agent.Task, v agent.Verdicts) agent.Attempt {
	a.Task, a.Verdicts = task, v
	a.Steps = slices.Clone(a.Steps)
	for i, s := range a.Steps {
		if s.Decision.Observed != nil {
			f := harness.Observe(s.Before, s.Action.Target)
			a.Steps[i].Decision.Observed, a.Steps[i].Decision.Fingerprint = &f, f.Hash
		}
	}
	if a.Terminal == agent.Completed && !v.Gate.Done {
		a.Terminal = agent.Ambiguous
		a.Reason = fmt.Sprintf("recorded as completed (%s), but recomputing its verdicts the completion gate does not hold", a.Reason)
	}
	return a
}

func sameTask(a, b agent.Task) bool {
	norm := func(t agent.Task) agent.Task {
		if len(t.Origins) == 0 {
			t.Origins = nil
		}
		t.Origins = slices.Clone(t.Origins)
		// The uploads and downloads folders are where the machine that ran the task kept its
		// files: a run verified on another machine, or from another folder, resolves them
		// elsewhere (or, judging only, not at all), and no verdict depends on them.
		t.Uploads, t.Downloads = "", ""
		return t
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

func taskText(t agent.Task) string {
	return fmt.Sprintf("%s: %q from %s", t.Name, t.Intent, t.StartURL)
}

func doneText(done bool) string {
	if done {
		return "done"
	}
	return "not done"
}

func quoteOrNone(s string) string {
	if s == "" {
		return "answered"
	}
	return fmt.Sprintf("%q", s)
}
