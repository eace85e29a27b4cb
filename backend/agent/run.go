package agent

import (
	"encoding/json"
	"time"
)

// RunStatus is where a run stands.
type RunStatus string

// Run statuses. Interrupted marks a run whose process died before it finished: nothing
// half-written is ever reported as finished.
const (
	RunRunning     RunStatus = "running"
	RunFinished    RunStatus = "finished"
	RunCancelled   RunStatus = "cancelled"
	RunInterrupted RunStatus = "interrupted"
	RunImported    RunStatus = "imported"
)

// Run is one batch of attempts of one task.
type Run struct {
	ID string `json:"id"`
	// Task is the task's name ("booking").
	Task string `json:"task"`
	// Spec is the task document the run was made from (observatory.task/v1, as JSON), so that
	// its verdicts can be recomputed anywhere; empty for a run upgraded from before task files.
	Spec    json.RawMessage `json:"spec,omitempty"`
	Created time.Time       `json:"created"`
	Status  RunStatus       `json:"status"`
	// Source is "live" for runs made here, or the file a run was imported from.
	Source string `json:"source"`
	// Budgets bound the whole run, its attempts together; nil for none.
	Budgets *Budgets `json:"budgets,omitempty"`
	// LabHost is the address the run's lab listened on and sent the browser to; empty for a
	// task on a site of its own, and for runs recorded before it was.
	LabHost string `json:"lab_host,omitempty"`
	// SuiteRun names the suite run this run is one task of ("smoke@20261203T121500-3f9a1c"):
	// the runs of one suite share it. Empty for a run of its own.
	SuiteRun string `json:"suite_run,omitempty"`
	// Signature is, for an imported run, what checking its signature found at the import;
	// nil for a run made here.
	Signature *Signature `json:"signature,omitempty"`
	Attempts  []Attempt  `json:"attempts"`
}

// Recorder persists a run as it progresses, so that a process killed mid-run leaves
// everything up to its last step. The store implements it; tests use a fake.
type Recorder interface {
	RunStarted(run Run) error
	// AttemptStarted records an attempt as it starts, at its position in the run (0-based):
	// attempts running side by side start in any order.
	AttemptStarted(runID string, position int, a Attempt) error
	StepRecorded(runID, slug string, s Step, events []Event) error
	AttemptFinished(runID string, a Attempt) error
	// MediaSaved records an attempt's video and trace, once written: after the attempt has
	// finished, since a recording is finished off the attempt's path (see Detacher).
	MediaSaved(runID, slug string, rec Recording) error
	RunFinished(runID string, status RunStatus) error
}
