package app

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"observatory/app/apierror"
	"observatory/backend/agent"
	"observatory/backend/metrics"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// NewSuiteRunID names a suite run of the suite name started at now: the name, "@", and a
// run id ("smoke@20261203T121500-3f9a1c"). Every run of the suite run records it.
func NewSuiteRunID(name string, now time.Time) string {
	return name + "@" + runner.NewRunID(now)
}

// SuiteName is the suite's name in a suite run's id (see NewSuiteRunID).
func SuiteName(suiteRun string) string {
	if at := strings.LastIndex(suiteRun, "@"); at >= 0 {
		return suiteRun[:at]
	}
	return suiteRun
}

// SuiteRequest asks for a suite run from the window: its tasks run one after another, each a
// run of its own, with every attempt repeated Repeat times. A nil Config uses the override
// saved in the settings.
type SuiteRequest struct {
	// Name names the suite; empty is "suite".
	Name   string                `json:"name"`
	Tasks  []SuiteTask           `json:"tasks"`
	Repeat int                   `json:"repeat"`
	Config *agent.ConfigOverride `json:"config"`
}

// SuiteTask is one task of a SuiteRequest, as a StartRequest names it: empty Attempts runs
// them all.
type SuiteTask struct {
	Task     string   `json:"task"`
	Attempts []string `json:"attempts,omitempty"`
	AllowEnv []string `json:"allow_env,omitempty"`
}

// liveSuite is a suite run going: its runs follow each other until the last ends or it is
// stopped.
type liveSuite struct {
	id      string
	stopped atomic.Bool
	done    chan struct{}
}

// StartSuite begins a suite run in the background and returns its id: each task's run
// starts when the one before it has ended, reported as any run is ("run" events); Stop stops
// the suite, not only the run under way. Every task is checked before anything runs.
func (r *Runs) StartSuite(req SuiteRequest) (string, error) {
	if len(req.Tasks) == 0 {
		return "", apierror.New(apierror.Invalid, "a suite needs at least one task")
	}
	if req.Repeat < 0 || req.Repeat > agent.MaxTrials {
		return "", apierror.New(apierror.Invalid, fmt.Sprintf("repeat %d: want at most %d trials of each attempt", req.Repeat, agent.MaxTrials))
	}
	name := req.Name
	if name == "" {
		name = "suite"
	}
	for i, t := range req.Tasks {
		src, err := r.tasks.source(t.Task, t.AllowEnv)
		if err == nil {
			_, err = runner.Check(src.Suite, t.Attempts, req.Repeat, agent.ConfigOverride{})
		}
		if err != nil {
			return "", apierror.New(apierror.Invalid, fmt.Sprintf("suite %s: task %d (%s): %v", name, i+1, t.Task, err))
		}
	}
	s := &liveSuite{id: NewSuiteRunID(name, time.Now()), done: make(chan struct{})}
	r.mu.Lock()
	if r.suite != nil {
		r.mu.Unlock()
		return "", ErrRunGoing
	}
	r.suite = s
	r.mu.Unlock()
	task := func(t SuiteTask) StartRequest {
		return StartRequest{Task: t.Task, Attempts: t.Attempts, AllowEnv: t.AllowEnv, Repeat: req.Repeat, Config: req.Config}
	}
	live, err := r.start(task(req.Tasks[0]), s.id)
	if err != nil {
		r.endSuite(s)
		return "", err
	}
	go func() {
		defer r.endSuite(s)
		for _, t := range req.Tasks[1:] {
			<-live.done
			if s.stopped.Load() {
				return
			}
			next, err := r.start(task(t), s.id)
			if err != nil {
				r.emit.Emit(EventRun, runner.Progress{Kind: runner.Error, Message: fmt.Sprintf("suite %s stopped: task %s: %v", name, t.Task, err)})
				return
			}
			live = next
		}
		<-live.done
	}()
	return s.id, nil
}

// endSuite makes s no longer the suite run going.
func (r *Runs) endSuite(s *liveSuite) {
	r.mu.Lock()
	if r.suite == s {
		r.suite = nil
	}
	r.mu.Unlock()
	close(s.done)
}

// stopSuite stops the suite run going, if any, before its next run starts, and returns it.
func (r *Runs) stopSuite() *liveSuite {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.suite != nil {
		r.suite.stopped.Store(true)
	}
	return r.suite
}

// SuiteReport is a suite run as the window shows it: a grid of its tasks' attempts by trial,
// each cell one trial's end, and the estimates across the suite by attempt ("task/attempt").
type SuiteReport struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Runs are the suite run's runs, one a task, in the order they started.
	Runs []SuiteRunRef `json:"runs"`
	// Trials is the most trials any row has: the grid's columns.
	Trials int        `json:"trials"`
	Rows   []SuiteRow `json:"rows"`
	// Estimates are the success rates with their intervals, pass@k and the rest, one slice
	// a row (keyed as the row) and overall (see metrics.Compute).
	Estimates metrics.Report `json:"estimates"`
}

// SuiteRunRef is one run of a suite run: which task it ran, and how it ended.
type SuiteRunRef struct {
	ID      string          `json:"id"`
	Task    string          `json:"task"`
	Created time.Time       `json:"created"`
	Status  agent.RunStatus `json:"status"`
}

// SuiteRow is one attempt of one task of a suite run, its trials in order.
type SuiteRow struct {
	// Key is "task/attempt", as the estimates' slices are keyed.
	Key     string      `json:"key"`
	Task    string      `json:"task"`
	Attempt string      `json:"attempt"`
	Title   string      `json:"title"`
	Cells   []SuiteCell `json:"cells"`
}

// SuiteCell is one trial: how it ended, and where its trace is (run and attempt slug).
type SuiteCell struct {
	Run   string `json:"run"`
	Slug  string `json:"slug"`
	Trial int    `json:"trial"`
	// Terminal is empty while the trial has not ended.
	Terminal agent.Terminal `json:"terminal"`
	// Wrong are the checks whose verdicts disagree with the ground truth (see Verdicts.Wrong).
	Wrong []string `json:"wrong,omitempty"`
}

// Suite reads suite run id from st: its runs, the grid of their trials and the estimates
// across them. A suite run with no runs is a not-found error. id may name one run instead (a
// --repeat run): its attempts × trials grid, with the same estimates.
func Suite(st *store.Store, id string) (SuiteReport, error) {
	var runs []agent.Run
	var err error
	name := SuiteName(id)
	if IsSuiteRun(id) {
		runs, err = suiteRuns(st, id)
	} else {
		var run agent.Run
		run, err = st.Get(id)
		runs, name = []agent.Run{run}, run.Task+", run "+run.ID
	}
	if err != nil {
		return SuiteReport{}, err
	}
	rep := SuiteReport{ID: id, Name: name, Rows: []SuiteRow{}}
	for _, run := range runs {
		rep.Runs = append(rep.Runs, SuiteRunRef{ID: run.ID, Task: run.Task, Created: run.Created, Status: run.Status})
		rep.Rows = append(rep.Rows, gridOf(run)...)
	}
	for _, row := range rep.Rows {
		rep.Trials = max(rep.Trials, len(row.Cells))
	}
	rep.Estimates = metrics.Compute(runs, metrics.ByAttempt)
	return rep, nil
}

// suiteRuns reads every run of suite run id whole, in the order they started. A suite run
// with no runs is a not-found error.
func suiteRuns(st *store.Store, id string) ([]agent.Run, error) {
	ids, err := st.SuiteRuns(id)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, apierror.New(apierror.NotFound, fmt.Sprintf("no suite run %q", id))
	}
	runs := make([]agent.Run, 0, len(ids))
	for _, rid := range ids {
		run, err := st.Get(rid)
		if err != nil {
			return nil, fmt.Errorf("reading run %s of suite run %s: %w", rid, id, err)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// IsSuiteRun says whether id names a suite run (see NewSuiteRunID) rather than a run.
func IsSuiteRun(id string) bool { return strings.Contains(id, "@") }

// Suite reads a suite run whole; see Suite.
func (r *Runs) Suite(id string) (SuiteReport, error) { return Suite(r.store, id) }

// gridOf is one row per attempt of run, its trials in the order they were asked for.
func gridOf(run agent.Run) []SuiteRow {
	var rows []SuiteRow
	at := map[string]int{}
	for _, a := range run.Attempts {
		base := a.Base()
		k, ok := at[base]
		if !ok {
			k = len(rows)
			at[base] = k
			rows = append(rows, SuiteRow{Key: run.Task + "/" + base, Task: run.Task, Attempt: base, Title: a.Title})
		}
		rows[k].Cells = append(rows[k].Cells, SuiteCell{Run: run.ID, Slug: a.Slug, Trial: a.Trial, Terminal: a.Terminal, Wrong: a.Verdicts.Wrong()})
	}
	return rows
}
