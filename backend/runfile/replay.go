package runfile

import (
	"fmt"

	"observatory/backend/agent"
)

// Verdict names used in Disagreement.
const (
	VerdictSavedAsAsked = "saved_as_asked"
	VerdictNotice       = "notice"
	VerdictParallax     = "parallax"
	VerdictGate         = "gate"
	// VerdictTerminal flags an attempt recorded as completed whose recomputed gate is not done.
	VerdictTerminal = "terminal"
	// VerdictTask flags a file whose attempt claims a task other than the lab's.
	VerdictTask = "task"
)

// Disagreement is one recorded verdict that the recomputed one contradicts.
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

// Replay replays every attempt's events through lab's transition function and recomputes
// every verdict with lab's judge. A file for another lab, an illegal event order or events
// the judge cannot read are refused with an *Error.
func Replay(lab agent.Lab, f File) (Result, error) {
	if f.Run.Lab != lab.Name() {
		return Result{}, refuse("run.lab", "the file is for lab %q; replaying it needs that lab, not %q", f.Run.Lab, lab.Name())
	}
	res := Result{Run: f.importedRun()}
	for i, a := range f.Attempts {
		v, dis, err := judge(lab, a, index("attempts", i))
		if err != nil {
			return Result{}, err
		}
		res.Disagreements = append(res.Disagreements, dis...)
		res.Run.Attempts[i] = corrected(a, lab.Task(), v)
	}
	return res, nil
}

// judge replays one attempt at path p and compares its recomputed verdicts with the recorded.
func judge(lab agent.Lab, a agent.Attempt, p string) (agent.Verdicts, []Disagreement, error) {
	if err := lab.Replay(a.Events); err != nil {
		return agent.Verdicts{}, nil, refuse(child(p, "events"), "attempt %q: illegal event order: %v", a.Slug, err)
	}
	// The lab's own task is the intent; a file cannot change what was asked.
	v, err := lab.Judge(lab.Task(), a.Events, a.Steps)
	if err != nil {
		return agent.Verdicts{}, nil, refuse(p, "attempt %q cannot be judged from its events and steps: %v", a.Slug, err)
	}
	rec := a.Verdicts
	var dis []Disagreement
	if want := lab.Task(); a.Task != want {
		dis = append(dis, Disagreement{Attempt: a.Slug, Verdict: VerdictTask, Recorded: fmt.Sprintf("%q in %q", a.Task.Title, a.Task.Room),
			Recomputed: fmt.Sprintf("%q in %q (the lab's task)", want.Title, want.Room)})
	}
	for _, c := range []struct {
		name     string
		rec, got bool
	}{
		{VerdictSavedAsAsked, rec.SavedAsAsked.Done, v.SavedAsAsked.Done},
		{VerdictNotice, rec.Notice.Done, v.Notice.Done},
		{VerdictParallax, rec.Parallax.Done, v.Parallax.Done},
		{VerdictGate, rec.Gate.Done, v.Gate.Done},
	} {
		if c.rec != c.got {
			dis = append(dis, Disagreement{Attempt: a.Slug, Verdict: c.name, Recorded: doneText(c.rec), Recomputed: doneText(c.got)})
		}
	}
	if a.Terminal == agent.Completed && !v.Gate.Done {
		dis = append(dis, Disagreement{Attempt: a.Slug, Verdict: VerdictTerminal, Recorded: string(agent.Completed), Recomputed: "gate not done"})
	}
	return v, dis, nil
}

// corrected is a with the lab's task and verdicts v, and not completed unless v's gate is done.
func corrected(a agent.Attempt, task agent.Task, v agent.Verdicts) agent.Attempt {
	a.Task, a.Verdicts = task, v
	if a.Terminal == agent.Completed && !v.Gate.Done {
		a.Terminal = agent.Ambiguous
		a.Reason = fmt.Sprintf("recorded as completed (%s), but replaying its events the completion gate does not hold", a.Reason)
	}
	return a
}

func doneText(done bool) string {
	if done {
		return "done"
	}
	return "not done"
}
