package cireport

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"observatory/backend/agent"
	"observatory/backend/compare"
	"observatory/backend/stats"
)

// Policy is the gate CI applies to each attempt's trials.
type Policy struct {
	// MinRate, when above 0, passes an attempt whose completion rate's Wilson 95% lower
	// bound is at least MinRate, whatever its single trials did; at 0 every trial must
	// complete.
	MinRate float64
	// FailOnFlaky fails an attempt whose trials disagree (some completed, some did not).
	FailOnFlaky bool
}

// Case is one attempt of one task as CI sees it: its trials (one when the run did not repeat
// it), their estimates, the checks that disagreed with the ground truth and its verdict under
// a policy.
type Case struct {
	// Task is the task's name, Attempt the attempt's slug without its trial suffix.
	Task, Attempt, Title string
	// Trials are the attempt's trials in order; an attempt that was not repeated is its own
	// only trial.
	Trials []agent.Attempt
	// Completed counts the trials that completed; Interval is the Wilson 95% interval of the
	// completion rate and PassHatK the chance that all k = len(Trials) trials complete.
	Completed int
	Interval  stats.Interval
	PassHatK  float64
	// Flaky says the trials disagree: some completed and some did not.
	Flaky bool
	// Wrong are the checks whose call disagreed with the ground truth, by label, each with
	// the trials it was wrong on ("notice (t1, t2)"; just the label without trials).
	Wrong []string
	// Failed is the verdict under the policy, and Why says why in one sentence.
	Failed bool
	Why    string
	// Duration is the trials' wall time together.
	Duration time.Duration
	// Against is the case compared with a baseline run (see Report.Against); nil for none.
	Against *compare.RateRow
}

// Name is the case's test name: the attempt, which is unique within its task.
func (c Case) Name() string { return c.Attempt }

// Rate is the completion rate of the case's trials.
func (c Case) Rate() float64 { return stats.Proportion{K: c.Completed, N: len(c.Trials)}.Rate() }

// Repeated says the run repeated the attempt: its trials are numbered.
func (c Case) Repeated() bool { return len(c.Trials) > 0 && c.Trials[0].Trial > 0 }

// Failures are the trials that did not complete, in order.
func (c Case) Failures() []agent.Attempt {
	var out []agent.Attempt
	for _, a := range c.Trials {
		if a.Terminal != agent.Completed {
			out = append(out, a)
		}
	}
	return out
}

// Report is what every format writes: the cases of one or more runs (a suite's tasks) under
// one policy, with the files they point to.
type Report struct {
	// RunID names the logical run the report belongs to, shared by every shard of it.
	RunID string
	// Version is Observatory's, the tool that made the report.
	Version string
	Cases   []Case
	// Files are files every case refers to (the run file, an HTML report); only those that
	// exist are written into a report.
	Files []string
	// Media returns the files on disk of one trial (its trace, its video); only those that
	// exist are written. Nil for none.
	Media func(agent.Attempt) []string
	// Start and Stop bound the runs: the earliest start, and the latest end of a step.
	Start, Stop time.Time
	Policy      Policy
}

// Build groups the attempts of runs into cases, in the runs' order and each run's attempt
// order, and judges each under p.
func Build(runs []agent.Run, p Policy) Report {
	var rep Report
	rep.Policy = p
	seen := map[string]int{}
	for _, run := range runs {
		// Two runs of one task (a suite naming two versions of it) stay apart: CI keeps only
		// the first of two tests of one name.
		task := run.Task
		if seen[run.Task]++; seen[run.Task] > 1 {
			task = fmt.Sprintf("%s (%d)", run.Task, seen[run.Task])
		}
		index := map[string]int{}
		for _, a := range run.Attempts {
			i, ok := index[a.Base()]
			if !ok {
				i = len(rep.Cases)
				index[a.Base()] = i
				rep.Cases = append(rep.Cases, Case{Task: task, Attempt: a.Base(), Title: a.Title})
			}
			rep.Cases[i].Trials = append(rep.Cases[i].Trials, a)
			if rep.Start.IsZero() || a.Started.Before(rep.Start) {
				rep.Start = a.Started
			}
			if end := a.Started.Add(wall(a)); end.After(rep.Stop) {
				rep.Stop = end
			}
		}
	}
	for i := range rep.Cases {
		rep.Cases[i].judge(p)
	}
	return rep
}

// judge fills the case's estimates and its verdict under p.
func (c *Case) judge(p Policy) {
	wrongOn := map[string][]string{}
	var labels []string
	for _, a := range c.Trials {
		c.Duration += wall(a)
		if a.Terminal == agent.Completed {
			c.Completed++
		}
		for _, id := range a.Verdicts.Wrong() {
			l := checkLabel(a.Verdicts, id)
			if _, seen := wrongOn[l]; !seen {
				labels = append(labels, l)
			}
			wrongOn[l] = append(wrongOn[l], fmt.Sprintf("t%d", a.Trial))
		}
	}
	for _, l := range labels {
		if c.Repeated() {
			l += " (" + strings.Join(wrongOn[l], ", ") + ")"
		}
		c.Wrong = append(c.Wrong, l)
	}
	n := len(c.Trials)
	prop := stats.Proportion{K: c.Completed, N: n}
	c.Interval = prop.Wilson()
	c.PassHatK, _ = stats.PassHatK(n, c.Completed, n)
	c.Flaky = c.Completed > 0 && c.Completed < n
	switch {
	case p.MinRate > 0 && c.Interval.Lo < p.MinRate:
		c.Failed, c.Why = true, fmt.Sprintf("%d of %d trials completed: the rate's 95%% lower bound %.0f%% is below the required %.0f%%.",
			c.Completed, n, 100*c.Interval.Lo, 100*p.MinRate)
	case p.MinRate == 0 && c.Completed < n:
		c.Failed, c.Why = true, firstFailure(*c)
	case p.FailOnFlaky && c.Flaky:
		c.Failed, c.Why = true, fmt.Sprintf("flaky: %d of %d trials completed, the others did not.", c.Completed, n)
	}
}

// firstFailure says why the case's first trial that did not complete ended as it did, in
// one sentence: its terminal state and its reason.
func firstFailure(c Case) string {
	f := c.Failures()[0]
	what := string(f.Terminal)
	if what == "" {
		what = "unfinished"
	}
	if c.Repeated() {
		return fmt.Sprintf("%d of %d trials did not complete; trial %d %s: %s", len(c.Trials)-c.Completed, len(c.Trials), f.Trial, what, Sentence(f.Reason))
	}
	return what + ": " + Sentence(f.Reason)
}

// Sentence is the first line of s, trimmed, ending in a full stop: a reason as one sentence.
func Sentence(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.TrimSpace(s)
	if s == "" {
		return "no reason was recorded."
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// checkLabel is the label of the check id among v's: a signal's, or the gate's.
func checkLabel(v agent.Verdicts, id string) string {
	if id == agent.GateID {
		return "completion gate"
	}
	if s, ok := v.Signal(id); ok && s.Label != "" {
		return s.Label
	}
	return id
}

// wall is an attempt's wall time: from its start to the end of its last step.
func wall(a agent.Attempt) time.Duration {
	var ms int64
	for _, s := range a.Steps {
		ms = max(ms, s.StartMS+s.DurationMS)
	}
	return time.Duration(ms) * time.Millisecond
}

// Failed counts the cases that failed under the report's policy.
func (r Report) Failed() int {
	n := 0
	for _, c := range r.Cases {
		if c.Failed {
			n++
		}
	}
	return n
}

// Flaky counts the flaky cases.
func (r Report) Flaky() int {
	return len(slices.DeleteFunc(slices.Clone(r.Cases), func(c Case) bool { return !c.Flaky }))
}

// existing is the paths of files that exist, in order.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

// attachments are the existing files a case points to: the report's files, then each
// trial's media.
func (r Report) attachments(c Case) []string {
	paths := slices.Clone(r.Files)
	if r.Media != nil {
		for _, a := range c.Trials {
			paths = append(paths, r.Media(a)...)
		}
	}
	return existing(paths)
}

// tasks are the tasks of the cases, in order, each with its cases.
func (r Report) tasks() []taskCases {
	var out []taskCases
	for _, c := range r.Cases {
		if len(out) == 0 || out[len(out)-1].name != c.Task {
			out = append(out, taskCases{name: c.Task})
		}
		out[len(out)-1].cases = append(out[len(out)-1].cases, c)
	}
	return out
}

type taskCases struct {
	name  string
	cases []Case
}
