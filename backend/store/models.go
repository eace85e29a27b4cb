package store

import (
	"time"

	"observatory/backend/agent"
)

// Nested values (task, config, plan, action, decision, samples, verdicts, event data) are kept
// as JSON text: they are read whole, and their Go types are the contract.

// runRow is one run. Writer is the token of the Store that started a live run (see writer.go);
// it is empty for imported runs and for runs recorded before writers were. Added is when the
// run came into this history: its start, or the moment it was imported.
type runRow struct {
	ID      string    `gorm:"primaryKey"`
	Task    string    `gorm:"not null"`
	Spec    string    `gorm:"not null;default:''"`
	Created time.Time `gorm:"not null;index"`
	Added   time.Time `gorm:"not null;index"`
	Status  string    `gorm:"not null;index"`
	Source  string    `gorm:"not null"`
	Writer  string    `gorm:"not null;default:''"`
	// Budgets bound the run's attempts together; nil for none.
	Budgets *agent.Budgets `gorm:"serializer:json;type:text"`
	LabHost string         `gorm:"not null;default:''"`
	// SuiteRun is agent.Run's: the suite run the run is one task of, "" for none.
	SuiteRun string `gorm:"not null;default:'';index"`
	// Signature is what checking an imported run's signature found; nil for a run made here.
	Signature *agent.Signature `gorm:"serializer:json;type:text"`

	Attempts []attemptRow `gorm:"foreignKey:RunID;constraint:OnDelete:CASCADE"`
}

func (runRow) TableName() string { return "runs" }

// run is the run the row records, without its attempts.
func (r runRow) run() agent.Run {
	return agent.Run{ID: r.ID, Task: r.Task, Spec: specOf(r.Spec), Created: r.Created, Status: agent.RunStatus(r.Status),
		Source: r.Source, Budgets: r.Budgets, LabHost: r.LabHost, SuiteRun: r.SuiteRun, Signature: r.Signature}
}

// attemptRow is one attempt of a run; Position orders the attempts within it. Terminal stays
// empty until the attempt finishes.
type attemptRow struct {
	ID       uint   `gorm:"primaryKey"`
	RunID    string `gorm:"not null;uniqueIndex:attempt_run_slug"`
	Slug     string `gorm:"not null;uniqueIndex:attempt_run_slug"`
	Position int    `gorm:"not null"`
	// Trial is agent.Attempt's: which repetition of an attempt it is, 0 when none.
	Trial   int            `gorm:"not null;default:0"`
	Title   string         `gorm:"not null"`
	Task    agent.Task     `gorm:"serializer:json;type:text"`
	Config  agent.Config   `gorm:"serializer:json;type:text"`
	Fault   string         `gorm:"not null;default:''"`
	Params  map[string]int `gorm:"serializer:json;type:text"`
	Plan    agent.Plan     `gorm:"serializer:json;type:text"`
	Answers []agent.Answer `gorm:"serializer:json;type:text"`
	// ModelTurns are the planner's turns that led to no step.
	ModelTurns []agent.ModelTurn `gorm:"serializer:json;type:text"`
	Terminal   string            `gorm:"not null"`
	Reason     string            `gorm:"not null"`
	Verdicts   agent.Verdicts    `gorm:"serializer:json;type:text"`
	// Wrong is set when a verdict disagrees with the ground truth (Verdicts.Wrong), kept
	// beside the verdicts so the history counts wrong attempts without reading them.
	Wrong   bool `gorm:"not null;default:false"`
	Started time.Time
	// Viewport is the size the attempt's page was opened at; nil when not recorded.
	Viewport *agent.Size `gorm:"serializer:json;type:text"`
	// Evidence is the level the attempt was recorded at; "" is full.
	Evidence string `gorm:"not null;default:''"`
	Video    string `gorm:"not null"`
	Trace    string `gorm:"not null;default:''"`
	// BrowserLog is agent.Attempt's, bounded by agent.MaxBrowserLog.
	BrowserLog string `gorm:"not null;default:''"`
	// Claim is what the agent that drove the attempt claimed; NULL when none did.
	Claim *agent.Claim `gorm:"serializer:json;type:text"`
	// Opening is what the pages sent before an outside agent's first input; NULL for none.
	Opening *agent.Traffic `gorm:"serializer:json;type:text"`

	Steps  []stepRow  `gorm:"foreignKey:AttemptID;constraint:OnDelete:CASCADE"`
	Events []eventRow `gorm:"foreignKey:AttemptID;constraint:OnDelete:CASCADE"`
}

func (attemptRow) TableName() string { return "attempts" }

// stepRow is one executed step of an attempt.
type stepRow struct {
	ID             uint                   `gorm:"primaryKey"`
	AttemptID      uint                   `gorm:"not null;uniqueIndex:step_attempt_index"`
	Index          int                    `gorm:"not null;uniqueIndex:step_attempt_index"`
	Action         agent.Action           `gorm:"serializer:json;type:text"`
	Reason         string                 `gorm:"not null;default:''"`
	Decision       agent.Decision         `gorm:"serializer:json;type:text"`
	Resolved       string                 `gorm:"not null"`
	Before         agent.Sample           `gorm:"serializer:json;type:text"`
	After          agent.Sample           `gorm:"serializer:json;type:text"`
	Distance       float64                `gorm:"not null"`
	StartMS        int64                  `gorm:"not null"`
	DurationMS     int64                  `gorm:"not null"`
	Blocked        []string               `gorm:"serializer:json;type:text"`
	Transfers      []agent.Transfer       `gorm:"serializer:json;type:text"`
	Error          string                 `gorm:"not null"`
	Guidance       string                 `gorm:"not null;default:''"`
	Output         string                 `gorm:"not null;default:''"`
	Approvals      []agent.Approval       `gorm:"serializer:json;type:text"`
	Reconciliation *agent.Reconciliation  `gorm:"serializer:json;type:text"`
	ModelTurns     []agent.ModelTurn      `gorm:"serializer:json;type:text"`
	Requests       []agent.Request        `gorm:"serializer:json;type:text"`
	Console        []agent.ConsoleMessage `gorm:"serializer:json;type:text"`
	PageErrors     []agent.PageError      `gorm:"serializer:json;type:text"`
	Dropped        agent.Dropped          `gorm:"serializer:json;type:text"`
	TargetBox      *agent.Box             `gorm:"serializer:json;type:text"`
	Candidates     []agent.Candidate      `gorm:"serializer:json;type:text"`
	Unresolved     bool                   `gorm:"not null;default:false"`
	// Provenance is "observed" for an outside agent's input, empty for a proposed action.
	Provenance string `gorm:"not null;default:''"`
	// Evidence is what an observed step's evidence cannot vouch for (agent.Step.Evidence).
	Evidence string `gorm:"not null;default:''"`

	// The step's summary (agent.StepSummary) beyond the columns above, written with it: the
	// index step_summary covers these, so an attempt's steps list without reading any JSON.
	Description string `gorm:"not null;default:''"`
	Kind        string `gorm:"not null;default:''"`
	Target      string `gorm:"not null;default:''"`
	Value       string `gorm:"not null;default:''"`
	Class       string `gorm:"not null;default:''"`
	Admission   string `gorm:"not null;default:''"`
	Failed      bool   `gorm:"not null;default:false"`
	// FailedRequests and Unchanged are the summary's failure marks (version 21).
	FailedRequests int    `gorm:"not null;default:0"`
	Unchanged      bool   `gorm:"not null;default:false"`
	Shot           string `gorm:"not null;default:''"`
	Turns          int    `gorm:"not null;default:0"`
	SaidDone       bool   `gorm:"not null;default:false"`
}

func (stepRow) TableName() string { return "steps" }

// eventRow is one app event of an attempt's log.
type eventRow struct {
	ID        uint              `gorm:"primaryKey"`
	AttemptID uint              `gorm:"not null;uniqueIndex:event_attempt_seq"`
	Seq       int               `gorm:"not null;uniqueIndex:event_attempt_seq"`
	AtMS      int64             `gorm:"not null"`
	Type      string            `gorm:"not null"`
	Data      map[string]string `gorm:"serializer:json;type:text"`
}

func (eventRow) TableName() string { return "events" }

func newAttemptRow(runID string, pos int, a agent.Attempt) attemptRow {
	return attemptRow{RunID: runID, Slug: a.Slug, Position: pos, Trial: a.Trial, Title: a.Title, Task: a.Task,
		Config: a.Config, Fault: a.Fault, Params: a.Params, Plan: a.Plan, Answers: a.Answers, ModelTurns: a.ModelTurns,
		Terminal: string(a.Terminal), Reason: a.Reason,
		Verdicts: a.Verdicts, Wrong: anyWrong(a.Verdicts), Started: a.Started.UTC(), Viewport: a.Viewport, Evidence: string(a.EvidenceLevel), Video: a.Video, Trace: a.Trace, BrowserLog: agent.BoundBrowserLog(a.BrowserLog),
		Claim: a.Claim, Opening: a.Opening}
}

// anyWrong reports whether a verdict of v disagrees with the ground truth.
func anyWrong(v agent.Verdicts) bool { return len(v.Wrong()) > 0 }

// attempt rebuilds the attempt from the row and its preloaded steps and events.
func (r attemptRow) attempt() agent.Attempt {
	a := agent.Attempt{Slug: r.Slug, Title: r.Title, Trial: r.Trial, Task: r.Task, Config: r.Config, Fault: r.Fault,
		Params: r.Params, Plan: r.Plan, Answers: r.Answers, ModelTurns: r.ModelTurns,
		Steps: make([]agent.Step, len(r.Steps)), Events: make([]agent.Event, len(r.Events)),
		Terminal: agent.Terminal(r.Terminal), Reason: r.Reason, Verdicts: r.Verdicts,
		Started: r.Started, Viewport: r.Viewport, EvidenceLevel: agent.EvidenceLevel(r.Evidence), Video: r.Video, Trace: r.Trace, BrowserLog: r.BrowserLog, Claim: r.Claim, Opening: r.Opening}
	for i, s := range r.Steps {
		a.Steps[i] = s.step()
	}
	for i, e := range r.Events {
		a.Events[i] = e.event()
	}
	return a
}

func newStepRow(attemptID uint, s agent.Step) stepRow {
	sum := s.Summary()
	return stepRow{AttemptID: attemptID, Index: s.Index, Action: s.Action, Reason: s.Reason, Decision: s.Decision,
		Resolved: s.Resolved, Before: s.Before, After: s.After, Distance: s.Distance,
		StartMS: s.StartMS, DurationMS: s.DurationMS, Blocked: s.Blocked, Transfers: s.Transfers, Error: s.Error,
		Guidance: s.Guidance, Output: s.Output, Approvals: s.Approvals, Reconciliation: s.Reconciliation, ModelTurns: s.ModelTurns,
		Requests: s.Requests, Console: s.Console, PageErrors: s.Errors, Dropped: s.Dropped,
		TargetBox: s.TargetBox, Candidates: s.Candidates, Unresolved: s.Unresolved, Provenance: string(s.Provenance), Evidence: s.Evidence,
		Description: sum.Description, Kind: string(sum.Kind), Target: sum.Target, Value: sum.Value,
		Class: string(sum.Class), Admission: string(sum.Admission), Failed: sum.Failed, FailedRequests: sum.FailedRequests, Unchanged: sum.Unchanged, Shot: sum.Shot, Turns: sum.Turns, SaidDone: sum.SaidDone}
}

func (r stepRow) step() agent.Step {
	return agent.Step{Index: r.Index, Action: r.Action, Reason: r.Reason, Decision: r.Decision, Resolved: r.Resolved,
		Before: r.Before, After: r.After, Distance: r.Distance, StartMS: r.StartMS,
		DurationMS: r.DurationMS, Blocked: r.Blocked, Transfers: r.Transfers, Error: r.Error,
		Guidance: r.Guidance, Output: r.Output, Approvals: r.Approvals, Reconciliation: r.Reconciliation, ModelTurns: r.ModelTurns,
		Traffic:   agent.Traffic{Requests: r.Requests, Console: r.Console, Errors: r.PageErrors, Dropped: r.Dropped},
		TargetBox: r.TargetBox, Candidates: r.Candidates, Unresolved: r.Unresolved, Provenance: agent.Provenance(r.Provenance),
		Evidence: r.Evidence}
}

func newEventRow(attemptID uint, e agent.Event) eventRow {
	return eventRow{AttemptID: attemptID, Seq: e.Seq, AtMS: e.AtMS, Type: e.Type, Data: e.Data}
}

func (r eventRow) event() agent.Event {
	return agent.Event{Seq: r.Seq, AtMS: r.AtMS, Type: r.Type, Data: r.Data}
}
