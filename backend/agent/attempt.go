package agent

import (
	"encoding/json"
	"time"
)

// Terminal is how an attempt ended. Every attempt ends in exactly one.
type Terminal string

// Terminal states. Completed needs authoritative proof; anything short of it is one of the
// others, never "partly complete".
const (
	Completed Terminal = "completed" // the completion gate proved the intended effect
	Failed    Terminal = "failed"    // evidence shows the effect did not happen
	Rejected  Terminal = "rejected"  // policy or the app refused before the effect
	Exhausted Terminal = "exhausted" // the action budget ran out first
	Cancelled Terminal = "cancelled" // the user stopped it, or the run was abandoned
	Ambiguous Terminal = "ambiguous" // the effect may have happened; evidence is lost or contradictory
)

// Terminals lists every terminal state.
var Terminals = []Terminal{Completed, Failed, Rejected, Exhausted, Cancelled, Ambiguous}

// Valid reports whether t is one of the terminal states.
func (t Terminal) Valid() bool {
	for _, v := range Terminals {
		if t == v {
			return true
		}
	}
	return false
}

// Event is one app event from a lab's ordered log. Type and Data are lab-specific; the lab's
// transition function gives them meaning.
type Event struct {
	Seq  int               `json:"seq"`
	AtMS int64             `json:"at_ms"`
	Type string            `json:"type"`
	Data map[string]string `json:"data,omitempty"`
}

// Answer is what one oracle condition read from authoritative state at the final check: the
// raw answer it judged (an HTTP status and body, SQL rows, page facts), bounded in size and
// with secrets redacted, or why it could not read anything. Verdicts are recomputed from it.
type Answer struct {
	// Condition is the ID of the condition (or signal) that asked.
	Condition string `json:"condition"`
	Kind      string `json:"kind"`
	// Raw is the answer as JSON; absent when Error is set, but for a model judge's, which
	// keeps what asking spent (see JudgeReply).
	Raw json.RawMessage `json:"raw,omitempty"`
	// Error says why the oracle could not answer.
	Error string `json:"error,omitempty"`
}

// Evidence is everything an attempt's verdicts are computed from, live and on import alike:
// the app's event log (where the app keeps one), the oracle's final answers and the steps.
type Evidence struct {
	Events  []Event
	Answers []Answer
	Steps   []Step
	// Claim is what the agent that drove the attempt said of it; nil when it said nothing.
	Claim *Claim
}

// Step is one executed action with everything recorded about it: the proposal, the policy
// decision, the page before and after, and what came of it.
type Step struct {
	Index  int    `json:"index"`
	Action Action `json:"action"`
	// Provenance is Observed for an action an outside agent took unseen: such a step has no
	// proposal reason, no model turns and a zero Decision, never an invented one.
	Provenance Provenance `json:"provenance,omitempty"`
	// Reason is the planner's stated reason for proposing the action, if it gave one.
	Reason string `json:"reason,omitempty"`
	// Evidence says what Observatory cannot vouch for in an observed step's before, after or
	// requests ("looked late: ..."); empty when they are the page and the requests as they
	// were at its input and the next.
	Evidence string `json:"evidence,omitempty"`
	// ModelTurns are a model planner's turns that led to the action: request summary,
	// reply, tool calls, usage, latency and cost.
	ModelTurns []ModelTurn `json:"model_turns,omitempty"`
	Decision   Decision    `json:"decision"`
	// Resolved is the target that actually matched (the alias, when it was used).
	Resolved string  `json:"resolved,omitempty"`
	Before   Sample  `json:"before"`
	After    Sample  `json:"after"`
	Distance float64 `json:"distance"` // role-set Jaccard distance between Before and After
	StartMS  int64   `json:"start_ms"`
	// DurationMS covers acting and, for verify, waiting.
	DurationMS int64 `json:"duration_ms"`
	// Blocked lists requests to origins outside the task's that the step's page tried and
	// the browser refused.
	Blocked []string `json:"blocked,omitempty"`
	// Transfers are the files the step uploaded or saved.
	Transfers []Transfer `json:"transfers,omitempty"`
	// Traffic is what the page did in the network and its console during the step, secrets
	// masked; empty when the page records none.
	Traffic
	// Error says what went wrong, empty when the step did what it was asked.
	Error string `json:"error,omitempty"`
	// Output is what the action returned to its agent: an evaluated script's result (JSON),
	// secrets masked, at most MaxOutput bytes; empty for the other actions.
	Output string `json:"output,omitempty"`
	// Guidance is what the harness tells the planner about this call's result when it
	// repeats ("change approach"); empty when there is nothing to say.
	Guidance string `json:"guidance,omitempty"`
	// Approvals are the approval requests made immediately before the action ran, in order,
	// each with its answer.
	Approvals []Approval `json:"approvals,omitempty"`
	// Reconciliation is the look-up in the app's store that settled an ambiguous commit.
	Reconciliation *Reconciliation `json:"reconciliation,omitempty"`
	// TargetBox is where the acted-on element was, measured right before the action; nil for
	// an action without a target, or on a page that cannot measure.
	TargetBox *Box `json:"target_box,omitempty"`
	// Candidates are the elements nearest a target that matched nothing, best first.
	Candidates []Candidate `json:"candidates,omitempty"`
	// Unresolved is set when the step's target matched no element or several, so nothing
	// ran and a planner that re-plans names its target again (Error says how it failed); a
	// scripted plan's attempt ends there instead.
	Unresolved bool `json:"unresolved,omitempty"`
}

// Skipped reports whether s is an optional step whose target was not there: nothing ran,
// and that is no failure.
func (s Step) Skipped() bool { return s.Action.Optional && s.Unresolved && s.Error == "" }

// Transfer is one file an action moved: an upload from the uploads folder, or a download
// saved in the downloads folder.
type Transfer struct {
	// Kind is ActUpload or ActDownload.
	Kind ActionKind `json:"kind"`
	// Offered is the name as asked for: the plan's path for an upload, the page's suggested
	// name for a download (possibly hostile: "../../.bashrc").
	Offered string `json:"offered"`
	// Saved is the name the file has in its folder: the upload's path inside the uploads
	// folder, the download's safe name inside the downloads folder.
	Saved string `json:"saved"`
	Bytes int64  `json:"bytes"`
}

// AttemptSpec is one scripted attempt a task offers: the app's fault and parameters, and the
// policies it runs with.
type AttemptSpec struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	// Fault is the lab-specific fault mode the app is started with; empty for none.
	Fault string `json:"fault,omitempty"`
	// Params are the lab's own knobs for this attempt (a save latency), by name.
	Params map[string]int `json:"params,omitempty"`
	Config Config         `json:"config"`
	// Plan is the attempt's own scripted plan; empty follows the suite's.
	Plan Plan `json:"plan,omitempty"`
	// Trial is which repetition of the attempt this is, from 1 (see Trials); 0 when the run
	// does not repeat its attempts.
	Trial int `json:"trial,omitempty"`
}

// Attempt is one run of a task, from start to its terminal state.
type Attempt struct {
	Slug  string `json:"attempt"`
	Title string `json:"title"`
	// Trial is which repetition of an attempt this is, from 1; 0 when the run did not repeat
	// its attempts. Slug then names the trial ("slug.t2"), Base the attempt.
	Trial  int            `json:"trial,omitempty"`
	Task   Task           `json:"task"`
	Config Config         `json:"config"`
	Fault  string         `json:"fault,omitempty"`
	Params map[string]int `json:"params,omitempty"`
	// Plan is the scripted plan the attempt followed; empty when a model planned it.
	Plan  Plan   `json:"plan"`
	Steps []Step `json:"steps"`
	// ModelTurns are a model planner's turns that led to no step: those of the planning that
	// ended the attempt (a time limit, a budget, corrections spent), with its waits and the
	// turn naming why. The turns that led to a step are on the step.
	ModelTurns []ModelTurn `json:"model_turns,omitempty"`
	Events     []Event     `json:"events"`
	Answers    []Answer    `json:"answers,omitempty"`
	// Terminal and Reason say how the attempt ended, in a sentence.
	Terminal Terminal  `json:"terminal"`
	Reason   string    `json:"reason"`
	Verdicts Verdicts  `json:"verdicts"`
	Started  time.Time `json:"started"`
	// Viewport is the size, in CSS pixels, the attempt's page was opened at: every sample and
	// screenshot of it should be taken at that size, and a viewer marks a step whose capture
	// was not. Nil when the
	// browser does not say, and in attempts recorded before it was.
	Viewport *Size `json:"viewport,omitempty"`
	// EvidenceLevel is the level the attempt was recorded at; "" is full (and every attempt recorded
	// before levels were).
	EvidenceLevel EvidenceLevel `json:"evidence,omitempty"`
	// Video is the recorded video's path relative to the run's media folder, if recorded.
	Video string `json:"video,omitempty"`
	// Trace is the Playwright trace's path relative to the run's media folder, if recorded.
	Trace string `json:"trace,omitempty"`
	// BrowserLog is what the browser logged around the error that ended the attempt
	// (Chromium's launch log, Playwright's call log), secrets masked and at most
	// MaxBrowserLog bytes; Reason keeps only the error's first line. Empty when the
	// attempt did not end on a browser error that carried a log.
	BrowserLog string `json:"browser_log,omitempty"`
	// Claim is what the agent that drove the attempt said of it at the end (see Claim);
	// nil when no agent claims anything (a scripted plan).
	Claim *Claim `json:"claim,omitempty"`
	// Opening is what the attempt's pages sent and logged before an outside agent's first
	// input (the start page's load), which belongs to no input; nil for none or when the
	// steps hold it (a proposed first step opens nothing of its own either).
	Opening *Traffic `json:"opening,omitempty"`
}

// Evidence is the attempt's recorded evidence, as its verdicts are judged from.
func (a Attempt) Evidence() Evidence {
	return Evidence{Events: a.Events, Answers: a.Answers, Steps: a.Steps, Claim: a.Claim}
}
