package agent

import (
	"context"
	"errors"
)

// Errors a Page reports when resolving a target.
var (
	// ErrNoTarget means no element matched the target.
	ErrNoTarget = errors.New("no element matches the target")
	// ErrAmbiguousTarget means several elements matched; the executor never picks the first.
	ErrAmbiguousTarget = errors.New("several elements match the target")
	// ErrBrowserGone means the browser or page closed or crashed under the executor.
	ErrBrowserGone = errors.New("the browser closed or crashed")
	// ErrExhausted is wrapped by a planner's error when one of its own limits ran out (a
	// time limit, a token or money budget): the attempt ends exhausted, naming the limit.
	ErrExhausted = errors.New("planning limit reached")
	// ErrRefused is wrapped by a Page's error when it refused an action before doing anything
	// (an upload from outside the uploads folder): even a commit then certainly had no
	// effect, so the attempt fails rather than ending ambiguous.
	ErrRefused = errors.New("refused before acting")
	// ErrHeldAtStart ends an attempt whose completion gate held before it acted (state an
	// earlier run left, say): nothing it did could be told from what was already there, so
	// it does nothing and ends ambiguous, whatever the final state says.
	ErrHeldAtStart = errors.New("the completion gate held before the attempt acted")
)

// Media says what an attempt's page records beside its steps. The settings, the command
// line's flags, the runner and each page carry this one value.
type Media struct {
	// Video records the page's video (<slug>.webm).
	Video bool `json:"video"`
	// Screenshots keeps a screenshot before and after each step.
	Screenshots bool `json:"screenshots"`
	// Trace records a Playwright trace (<slug>.trace.zip), which opens in Playwright's own
	// trace viewer.
	Trace bool `json:"trace"`
	// Bodies records request and response bodies with each step's network traffic, bounded
	// (see MaxBodyBytes) and with secrets masked; without it only their sizes are kept.
	Bodies bool `json:"bodies,omitempty"`
	// PixelRatio is the device pixel ratio pages are opened at, so screenshots are that many
	// image pixels a CSS pixel, as sharp as a HiDPI screen shows the page (2 doubles each side);
	// 0 is 1. Layout stays in CSS pixels: only the picture's resolution changes.
	PixelRatio float64 `json:"pixel_ratio,omitempty"`
	// DOM keeps a static copy of the page's DOM beside each screenshot (<hash>.dom.txt): what
	// the page held, its scripts, handlers and active URLs removed, form values written into
	// it, at most MaxDOMBytes. Off by default.
	DOM bool `json:"dom_snapshots,omitempty"`
	// Evidence is how much each step keeps: EvidenceFull (also "") or EvidenceLean; a run's
	// Media may hold EvidenceFirstTrial, which ForTrial resolves for each attempt.
	Evidence EvidenceLevel `json:"evidence,omitempty"`
}

// Lean reports whether m keeps screenshots only where something went wrong.
func (m Media) Lean() bool { return m.Evidence == EvidenceLean }

// MaxDOMBytes bounds a stored DOM snapshot: a larger page's is not kept, and its sample says
// so (Sample.DOMSkipped).
const MaxDOMBytes = 2 << 20

// DOMExt ends a DOM snapshot's file name: the page's markup kept as text, served as
// text/plain and shown only in a sandboxed frame, never as a page of the viewer's origin.
const DOMExt = ".dom.txt"

// MaxPixelRatio is the greatest Media.PixelRatio: a screenshot's pixels grow with its square.
const MaxPixelRatio = 3

// ValidPixelRatio reports whether r is a pixel ratio a page can be opened at: 0 (meaning 1),
// or 1 to MaxPixelRatio.
func ValidPixelRatio(r float64) bool { return r == 0 || (r >= 1 && r <= MaxPixelRatio) }

// Files reports whether m records any file into a media folder (bodies are kept with the
// steps).
func (m Media) Files() bool { return m.Video || m.Screenshots || m.Trace || m.DOM }

// Framer is a Page whose recording may keep no screenshot with its samples (lean evidence):
// the executor then asks it for a pictured sample where something went wrong, so that a
// failed or held step and the attempt's last look keep their screenshot.
type Framer interface {
	// KeepsFrames reports whether every Observe already keeps its frame (full evidence).
	KeepsFrames() bool
	// ObserveFramed is Observe with the page's screenshot stored.
	ObserveFramed(ctx context.Context) (Sample, error)
}

// PageOptions are per-page choices: what to record and where the page may go.
type PageOptions struct {
	// MediaDir is where video, trace and screenshots go; empty records nothing.
	MediaDir string
	// Name is the file name stem of the page's video and trace ("saves-normally" gives
	// saves-normally.webm and saves-normally.trace.zip).
	Name string
	Media
	// Origins are the only origins the page may load from; empty allows any.
	Origins []string
	// LinkLocal lets the page reach link-local and cloud-metadata addresses through its
	// origins guard; without it a connection there is refused, whatever name led there.
	LinkLocal bool
	// StorageState is a Playwright storage-state file the page starts signed in with.
	StorageState string
	// Uploads is the only folder the page may upload files from, and Downloads the folder
	// it saves downloads in; empty refuses them.
	Uploads, Downloads string
	// Authority says what every observation reads besides the page's own facts: the
	// principal, the relevant text and the version (Sample.Principal, Facts, Version).
	Authority *Authority
	// Notices are where the task's named notices are shown: every observation reads what each
	// shows, or showed and hid since the observation before (Sample.Notices).
	Notices []NoticePlace
}

// Recording names what a closed page left in its MediaDir; empty names were not recorded.
type Recording struct {
	Video string `json:"video,omitempty"`
	Trace string `json:"trace,omitempty"`
}

// Detacher is a page whose recording can be finished after it has closed. Detach cuts the
// page off at once, aborting anything it still has in flight, as Close does, and returns what
// closes it and finishes the recording: the video's last frames encoded, the trace written. That can take a
// while, so a runner that knows the attempt's verdict need not wait for it; finish may be
// called from another goroutine, once. Close after Detach does nothing.
type Detacher interface {
	Detach() (finish func() (Recording, error))
}

// Browser opens pages. One browser serves many attempts, each on its own page and context.
type Browser interface {
	NewPage(ctx context.Context, opts PageOptions) (Page, error)
	Close() error
}

// Page is one browser tab as the executor drives it.
type Page interface {
	// Goto loads url and waits until it has loaded.
	Goto(ctx context.Context, url string) error
	// Observe samples the page in one round trip. With screenshots on, it also stores an
	// image and sets Sample.Screenshot.
	Observe(ctx context.Context) (Sample, error)
	// Resolve counts the elements t matches. It returns ErrNoTarget for none (a *MissError
	// naming the nearest candidates, when the page can list them), ErrAmbiguousTarget for
	// several and nil for exactly one.
	Resolve(ctx context.Context, t Target) error
	// Act carries out a on its target, which the caller has resolved to exactly one element
	// (a.Target is the resolved one, the alias in place when it was used).
	Act(ctx context.Context, a Action) error
	// Mask hides every element t matches from screenshots from now on (a secret's field).
	Mask(t Target)
	// Blocked returns the requests refused since the last call because their origin is not
	// one of PageOptions.Origins.
	Blocked() []string
	// Transfers returns the files uploaded or saved since the last call.
	Transfers() []Transfer
	// Stop aborts everything the page still has in flight, as the browser's Stop button
	// does; the page stays open and observable. The executor calls it when it gives up, so
	// that a save it no longer waits for cannot commit later. Like that button, it may be
	// called while another call on the page is in progress.
	Stop(ctx context.Context) error
	// Close closes the page, aborting anything it still has in flight, and returns what it
	// recorded, as paths relative to MediaDir.
	Close() (Recording, error)
}

// Measurer is a Page that can say where an element is. The executor measures the acted-on
// element right before each action and records the box on the step, for viewers to draw.
type Measurer interface {
	// Measure returns the bounding box of the one element t matches.
	Measure(ctx context.Context, t Target) (Box, error)
}

// Preflighter is a Page that can refuse an action before anyone is asked about it: an
// upload of a file outside the page's uploads folder. The executor asks it when policy
// admits an action only once the user approves it, so no one is asked to approve what the
// page would refuse.
type Preflighter interface {
	// Preflight returns why the page would refuse a, wrapping ErrRefused; nil when it may run.
	Preflight(a Action) error
}

// Sized is a Page that says the viewport size, in CSS pixels, it was opened at. The runner
// records it on the attempt, so that a sample or screenshot taken at another size shows as
// such.
type Sized interface {
	Viewport() Size
}

// Lifeline is implemented by a Browser or Page that learns the moment it dies: the tab
// crashes or closes, or the browser or its driver exits. The executor ends an attempt as soon
// as its page's Gone is closed, rather than at its next call or a deadline, and a runner
// replaces a browser that is gone before opening the next page on it.
type Lifeline interface {
	// Gone is closed once the browser or page is gone; every call on it fails with
	// ErrBrowserGone from then on.
	Gone() <-chan struct{}
	// GoneErr is ErrBrowserGone with what happened once Gone is closed, nil before; it may
	// carry the browser's log of its death (see LoggedError).
	GoneErr() error
}

// Grouper is a Page whose recording (a Playwright trace) can group the calls made for one
// agent action under its name, so the recording shows each step with the harness's calls
// inside it. The executor opens a group for each step and closes it when the step ends.
// Grouping belongs to the recording: its failure says nothing about the attempt.
type Grouper interface {
	Group(ctx context.Context, name string) error
	EndGroup(ctx context.Context) error
}

// Proposal is what a planner wants next: one action, or the end of its plan. It is the
// Proposal record, kept apart from the Decision policy takes on it.
type Proposal struct {
	Action Action
	// End means the planner has nothing more to propose; the gate is then checked once.
	End bool
	// Reason is the planner's stated reason, recorded with the step.
	Reason string
	// Turns are the model turns that led to the proposal, for a model planner.
	Turns []ModelTurn
	// Observed is set when the action already happened: an input an outside agent made in
	// the page on its own (Action is Observed.Action()). The executor records it as an
	// observed step, with the page before and after, and decides and does nothing.
	Observed *Input
}

// Planner proposes one action at a time from the latest observation and what has happened.
// When planning ends in an error, the proposal it returns may still carry the Turns spent on
// the way (corrections, waits, the turn naming the error): they are the record of why, kept
// on the attempt; the rest of that proposal is ignored.
type Planner interface {
	Next(ctx context.Context, obs Sample, history []Step) (Proposal, error)
}

// Driven is a Planner that speaks for an agent outside Observatory (an MCP client) which
// looks at the page itself between its actions and hears how its attempt ended. The runner
// binds it to the attempt's page before the attempt starts (the agent may read the page only
// while the executor waits on Next, never while it acts) and tells it the judged, recorded
// attempt once it has ended. A driven attempt follows no scripted plan.
type Driven interface {
	Planner
	Bind(page Page)
	Ended(a Attempt)
}

// Lookahead is a Planner that knows its next proposal before it sees the page: a scripted
// plan. The executor uses it to schedule a fixed wait's check from the very action the
// verify step waits on.
type Lookahead interface {
	Planner
	// Upcoming returns the proposal after the given number of steps.
	Upcoming(done int) (Proposal, bool)
}

// Replanner is a Planner that can take a held action back and propose something else. A
// planner that is not one ends the attempt when policy holds its proposal.
type Replanner interface {
	Planner
	Replans() bool
}

// Evaluator is a Page that runs an agent's script (ActEvaluate): the function in a.Value, on
// a.Target's element when it names one, returning the function's result as JSON.
type Evaluator interface {
	Evaluate(ctx context.Context, a Action) (string, error)
}

// MaxOutput bounds a step's Output, as a run file's free text is bounded.
const MaxOutput = 16<<10 - len("…")

// ErrorTaker is a Replanner whose agent takes an action's failure or refusal as an answer,
// as a Playwright MCP client does: the step records why, the page stays as it is, and the
// agent decides what to do next. Only its claim, a budget, the time limit, a stop or the
// page's death ends the attempt. A planner that is not one ends the attempt when an action
// fails.
type ErrorTaker interface {
	Replanner
	TakesErrors() bool
}

// PolicyRequest is what policy judges: a proposal, the observation it was grounded on, a
// fresh one taken immediately before acting, and the budget.
type PolicyRequest struct {
	Action    Action
	Grounding Sample
	Fresh     Sample
	// Spent actions of Budget.
	Spent, Budget int
	// History is the attempt's steps so far: admission counts repeated calls in it.
	History []Step
	// Safeguards are the attempt's review and approval settings; nil for none.
	Safeguards *Safeguards
	// Intent is the user's request word for word: what an action sends must come from it,
	// never from the page's text.
	Intent string
	// Prior is the decision being re-checked, decided on Grounding; nil for a first decision.
	// A review it holds stands while the page shows the reviewer nothing new.
	Prior *Decision
}

// Policy decides whether a proposed action may run: allow, hold or deny, and why. An error
// means it could not decide (a reviewer unavailable); the executor then holds the action.
type Policy interface {
	Decide(ctx context.Context, req PolicyRequest) (Decision, error)
}

// Check is the oracle's answer at one moment: the gate, and whether the app has settled in a
// way that makes further waiting pointless.
type Check struct {
	Gate Gate `json:"gate"`
	// Settled is empty while waiting still makes sense; otherwise the terminal state the app
	// forces (Rejected for a refused save, Failed for a notice without a record) and why.
	Settled       Terminal `json:"settled,omitempty"`
	SettledReason string   `json:"settled_reason,omitempty"`
	// Unanswerable says, when it is not empty, why the gate cannot hold however long one
	// waits: an oracle it needs refused the connection. Unlike Settled, it says nothing of
	// the app's state, so a save still in flight is stopped as on any failure.
	Unanswerable string `json:"unanswerable,omitempty"`
}

// Observer samples the page; oracles with page conditions call it.
type Observer func(ctx context.Context) (Sample, error)

// Oracle checks the completion gate against authoritative state, now.
type Oracle interface {
	Check(ctx context.Context, observe Observer) Check
}

// Environment is what one attempt runs against: a fresh copy of the app where it can be
// started (a lab), its oracle, and the evidence its verdicts are judged from.
type Environment interface {
	Oracle
	// StartURL is where the attempt begins, absolute.
	StartURL() string
	// Origins are the origins the attempt may load.
	Origins() []string
	// Quiesce waits until the app handles no request, so its state stops changing.
	Quiesce(ctx context.Context) error
	// Events returns the app's ordered event log so far; nil for an app that keeps none.
	Events() []Event
	// Answers reads each oracle condition's raw answer from authoritative state, for the
	// verdicts; the runner calls it once the page is closed and the app has quiesced, with
	// an observer that returns the last sample taken.
	Answers(ctx context.Context, observe Observer) []Answer
	// Close stops what Start started; late requests from an abandoned page are refused.
	Close() error
}

// Secretive is an Environment whose task declares secret values (the environment variables
// it reads: typed values, oracle headers, database addresses): no sample or traffic the
// executor records shows them, as no typed secret is shown.
type Secretive interface {
	Secrets() []string
}

// SecretKeeper is a Page that writes files of its own from the page's content (a DOM
// snapshot): the executor tells it every secret value it learns, before the page can show
// it, and the page masks each wherever it would be written.
type SecretKeeper interface {
	KeepSecret(values ...string)
}

// Folders is an Environment whose attempts may move files: the folder uploads must come
// from and the folder downloads are saved in (either may be empty: none allowed).
type Folders interface {
	Uploads() string
	Downloads() string
}

// LinkLocalReach is an Environment that says whether its user let the attempts reach
// link-local and cloud-metadata addresses (where a cloud machine serves its credentials).
type LinkLocalReach interface {
	AllowsLinkLocal() bool
}

// SignedIn is an Environment whose attempts start signed in, from a Playwright
// storage-state file.
type SignedIn interface {
	StorageState() string
}

// Judge computes every verdict from recorded evidence. It is the same function live and on
// import, so a run file's verdicts can always be recomputed.
type Judge interface {
	Judge(ev Evidence) (Verdicts, error)
}

// Suite is a task ready to run: the intent, its scripted attempts, a fresh environment per
// attempt, and the judge. A lab's built-in task and a user's task file are both suites.
type Suite interface {
	Judge
	Task() Task
	// Plan is the scripted plan; empty when a model plans.
	Plan() Plan
	Attempts() []AttemptSpec
	// Start brings up what one attempt runs against.
	Start(ctx context.Context, spec AttemptSpec) (Environment, error)
}

// Preflighted is a Suite that can tell, before a run is recorded, that its attempts cannot
// start (an environment variable it reads is not set, say): the run is then refused whole
// rather than recorded and ended interrupted at its first attempt.
type Preflighted interface {
	Preflight() error
}

// Frame is an app's state after one event of a replay, with the completion gate evaluated on it.
type Frame struct {
	Index int `json:"index"`
	// Event is the event that led to this state; nil for the initial state (Index 0).
	Event *Event `json:"event"`
	// State is the app's own state, which the UI shows as key/value text.
	State any  `json:"state"`
	Gate  Gate `json:"gate"`
}

// Replayer is a Suite whose app keeps an event log with a transition function: its events
// can be replayed frame by frame.
type Replayer interface {
	// Replay validates an event log; an illegal order or unknown event is an error naming it.
	Replay(events []Event) error
	// Frames rebuilds the state after each event: the initial state, then one per event.
	Frames(events []Event) ([]Frame, error)
}

// DialogKeeper is a Page that can leave a JavaScript dialog (alert, confirm, prompt) open for
// its agent to answer (ActDialogAccept, ActDialogDismiss), as Playwright MCP does, rather than
// dismissing it at once as a page does otherwise. A driven planner's driver turns it on when
// the page is bound to it. While a dialog is open the page's script is stopped: an
// observation is the latest one, marked DialogOpen with the dialog in its Notice. A dialog
// belongs to its tab: one another tab opened is the agent's once it turns to that tab.
type DialogKeeper interface {
	KeepDialogs()
	// Dialog is the dialog open now on the tab actions go to; false when none is.
	Dialog() (PendingDialog, bool)
}

// PendingDialog is a JavaScript dialog left open for its agent: its type (alert, confirm,
// prompt), its message and a prompt's default answer.
type PendingDialog struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Default string `json:"default,omitempty"`
}
