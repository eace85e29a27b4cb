package runfile

import (
	"encoding/json"
	"time"
)

// The run file's own types, version 2. They are the format: each is mapped to and from the
// domain explicitly (mapping.go), so the domain can grow without forking the file format.
// Fields without omitempty are required.

// fileV2 is one observatory.run/v2 document.
type fileV2 struct {
	Schema   string      `json:"schema"`
	Exported time.Time   `json:"exported"`
	Run      runV2       `json:"run"`
	Attempts []attemptV2 `json:"attempts"`
}

// runV2 is the run a file was exported from, with the task document it ran.
type runV2 struct {
	ID string `json:"id"`
	// Task is the task's name.
	Task    string    `json:"task"`
	Created time.Time `json:"created"`
	// Source is "live", or the file the run was itself imported from.
	Source string `json:"source"`
	// Spec is the task file the run was made from (observatory.task/v1 as JSON); absent for a
	// lab's built-in task, which is found by name.
	Spec json.RawMessage `json:"spec,omitempty"`
	// Budgets bound the whole run, its attempts together; absent for none.
	Budgets *budgetsV2 `json:"budgets,omitempty"`
	// LabHost is the address the run's lab listened on and sent the browser to; absent for a
	// task on a site of its own, and in files from before it was recorded.
	LabHost string `json:"lab_host,omitempty"`
	// SuiteRun names the suite run the run was one task of; absent for a run of its own.
	SuiteRun string `json:"suite_run,omitempty"`
	// Shard says which share of a run the file holds (run --shard); absent for a whole run.
	Shard *shardV2 `json:"shard,omitempty"`
	// Shards are the shard files a merged run was made from, with their digests; absent for
	// a run that was not merged.
	Shards []mergedShardV2 `json:"shards,omitempty"`
}

type taskV2 struct {
	Name     string   `json:"name"`
	Intent   string   `json:"intent"`
	StartURL string   `json:"start_url"`
	Origins  []string `json:"origins,omitempty"`
	// Authority is the task's authority declaration; absent when it declares none.
	Authority *authorityV2 `json:"authority,omitempty"`
	// Notices are where the task's named notices are shown; absent when it names none.
	Notices []noticePlaceV2 `json:"notices,omitempty"`
}

type configV2 struct {
	Wait        string        `json:"wait"`
	FixedWaitMS int           `json:"fixed_wait_ms"`
	PollMS      int           `json:"poll_ms"`
	DeadlineMS  int           `json:"deadline_ms"`
	Selectors   string        `json:"selectors"`
	Budget      int           `json:"budget"`
	Retries     int           `json:"retries,omitempty"`
	Safeguards  *safeguardsV2 `json:"safeguards,omitempty"`
	Budgets     *budgetsV2    `json:"budgets,omitempty"`
}

// budgetsV2 bounds an attempt or a run; an absent field is no bound.
type budgetsV2 struct {
	Steps       int     `json:"steps,omitempty"`
	WallClockMS int     `json:"wall_clock_ms,omitempty"`
	Retries     int     `json:"retries,omitempty"`
	Navigations int     `json:"navigations,omitempty"`
	Uploads     int     `json:"uploads,omitempty"`
	Downloads   int     `json:"downloads,omitempty"`
	Commits     int     `json:"commits,omitempty"`
	Tokens      int64   `json:"tokens,omitempty"`
	MoneyUSD    float64 `json:"money_usd,omitempty"`
}

type attemptV2 struct {
	Slug  string `json:"attempt"`
	Title string `json:"title"`
	// Trial is which repetition of an attempt this is, from 1; absent when the run did not
	// repeat its attempts. The slug then ends in ".t<trial>".
	Trial  int            `json:"trial,omitempty"`
	Task   taskV2         `json:"task"`
	Config configV2       `json:"config"`
	Fault  string         `json:"fault,omitempty"`
	Params map[string]int `json:"params,omitempty"`
	Plan   []actionV2     `json:"plan"`
	Steps  []stepV2       `json:"steps"`
	// ModelTurns are a model planner's turns that led to no step; absent for none.
	ModelTurns []modelTurnV2 `json:"model_turns,omitempty"`
	Events     []eventV2     `json:"events"`
	Answers    []answerV2    `json:"answers,omitempty"`
	Terminal   string        `json:"terminal"`
	Reason     string        `json:"reason"`
	Verdicts   verdictsV2    `json:"verdicts"`
	Started    time.Time     `json:"started"`
	// Viewport is the size the attempt's page was opened at; absent when the browser did not
	// say, and in files from before it was recorded.
	Viewport *sizeV2 `json:"viewport,omitempty"`
	// Evidence is the level the attempt was recorded at: "lean" keeps a screenshot only where
	// something went wrong; absent is full.
	Evidence string `json:"evidence,omitempty"`
	Video    string `json:"video,omitempty"`
	Trace    string `json:"trace,omitempty"`
	// BrowserLog is what the browser logged around the error that ended the attempt; absent
	// when there was none, and in files from before it was recorded.
	BrowserLog browserLogV2 `json:"browser_log,omitempty"`
	// Claim is what the agent that drove the attempt said of it; absent when no agent
	// claimed anything, and in files from before claims were recorded.
	Claim *claimV2 `json:"claim,omitempty"`
	// Opening is what the pages sent and logged before an outside agent's first input.
	Opening *trafficV2 `json:"opening,omitempty"`
}

// claimV2 is an agent's claim: done or not, its answer and words (each at most
// agent.MaxClaimText bytes), and its source: "mcp", "process" or "planner".
type claimV2 struct {
	Done   bool   `json:"done"`
	Answer string `json:"answer,omitempty"`
	Source string `json:"source"`
	Words  string `json:"words,omitempty"`
}

// browserLogV2 is an attempt's browser log: text as Chromium and Playwright wrote it, at
// most agent.MaxBrowserLog bytes, never part of a verdict.
type browserLogV2 string

type targetV2 struct {
	Role        string `json:"role,omitempty"`
	Name        string `json:"name,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	TestID      string `json:"test_id,omitempty"`
	Text        string `json:"text,omitempty"`
	CSS         string `json:"css,omitempty"`
	Alias       string `json:"alias,omitempty"`
	// Frame lists the iframes the element is in, outermost first.
	Frame  []frameV2    `json:"frame,omitempty"`
	Within *containerV2 `json:"within,omitempty"`
}

type frameV2 struct {
	Title string `json:"title,omitempty"`
	Name  string `json:"name,omitempty"`
	CSS   string `json:"css,omitempty"`
}

type containerV2 struct {
	Role   string `json:"role,omitempty"`
	Name   string `json:"name,omitempty"`
	TestID string `json:"test_id,omitempty"`
	CSS    string `json:"css,omitempty"`
}

// jsDialogV2 is a JavaScript dialog: its type (alert, confirm, prompt), message and a
// prompt's default answer.
type jsDialogV2 struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Default string `json:"default,omitempty"`
}

type actionV2 struct {
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Kind        string   `json:"kind"`
	Target      targetV2 `json:"target"`
	// To is where a drag drops its target; absent for every other kind.
	To        *targetV2 `json:"to,omitempty"`
	Value     string    `json:"value,omitempty"`
	Secret    bool      `json:"secret,omitempty"`
	Optional  bool      `json:"optional,omitempty"`
	Setup     bool      `json:"setup,omitempty"`
	TimeoutMS int       `json:"timeout_ms,omitempty"`
	Condition string    `json:"condition,omitempty"`
}

type decisionV2 struct {
	Class       string    `json:"class"`
	Admission   string    `json:"admission"`
	Reason      string    `json:"reason"`
	Fingerprint string    `json:"fingerprint,omitempty"`
	Contract    string    `json:"contract,omitempty"`
	Why         string    `json:"why,omitempty"`
	Key         string    `json:"key,omitempty"`
	Continue    bool      `json:"continue,omitempty"`
	Review      *reviewV2 `json:"review,omitempty"`
	AskUser     bool      `json:"ask_user,omitempty"`
	// RefusedByPage is why the page would refuse the action, held before anyone was asked;
	// absent otherwise, and in files from before it was recorded apart from the reason.
	RefusedByPage string `json:"refused_by_page,omitempty"`
	// Observed is the fingerprint the decision was taken on; import recomputes it.
	Observed *fingerprintV2 `json:"observed,omitempty"`
	Risk     string         `json:"risk,omitempty"`
}

type roleNameV2 struct {
	Role string `json:"role"`
	Name string `json:"name"`
}

// frameViewV2 is what one iframe showed (agent.FrameView).
type frameViewV2 struct {
	Path   []frameV2    `json:"path"`
	URL    string       `json:"url"`
	Text   string       `json:"text,omitempty"`
	Pairs  []roleNameV2 `json:"pairs,omitempty"`
	Fields []fieldV2    `json:"fields,omitempty"`
}

type fieldV2 struct {
	Role    string `json:"role"`
	Name    string `json:"name"`
	Value   string `json:"value"`
	Invalid bool   `json:"invalid,omitempty"`
}

type sampleV2 struct {
	// Seq numbers the attempt's observations from 1; absent in files from before it was recorded.
	Seq         int          `json:"seq,omitempty"`
	AtMS        int64        `json:"at_ms"`
	URL         string       `json:"url"`
	Title       string       `json:"title,omitempty"`
	DialogOpen  bool         `json:"dialog_open"`
	Fields      []fieldV2    `json:"fields"`
	Notice      string       `json:"notice"`
	Alert       string       `json:"alert"`
	Rows        [][]string   `json:"rows"`
	FormPresent bool         `json:"form_present"`
	FormValid   bool         `json:"form_valid"`
	Pairs       []roleNameV2 `json:"pairs"`
	Text        string       `json:"text,omitempty"`
	Unreadable  []regionV2   `json:"unreadable,omitempty"`
	Principal   string       `json:"principal,omitempty"`
	Facts       []factV2     `json:"facts,omitempty"`
	Version     string       `json:"version,omitempty"`
	// Notices are what the task's named notice places announced, by the place's id.
	Notices []factV2 `json:"notices,omitempty"`
	// Frames are what the shown same-origin iframes showed, each on its own.
	Frames []frameViewV2 `json:"frames,omitempty"`
	// Viewport is the page's viewport as the sample was read, ScreenshotSize the screenshot's
	// size in image pixels; each absent in files from before it was recorded.
	Viewport *sizeV2 `json:"viewport,omitempty"`
	// Tab is the index of the tab the sample was read from, absent for the first.
	Tab int `json:"tab,omitempty"`
	// JSDialog is the JavaScript dialog open over the page, left for an MCP agent to answer.
	JSDialog       *jsDialogV2 `json:"js_dialog,omitempty"`
	Screenshot     string      `json:"screenshot,omitempty"`
	ScreenshotSize *sizeV2     `json:"screenshot_size,omitempty"`
	// PixelRatio is the page's device pixel ratio when it was not 1 (absent: 1).
	PixelRatio float64 `json:"pixel_ratio,omitempty"`
	// DOM is the static copy of the page's DOM kept beside the screenshot, a media file name
	// ending in .dom.txt; DOMSkipped says why none was kept where one was asked for.
	DOM        string `json:"dom,omitempty"`
	DOMSkipped string `json:"dom_skipped,omitempty"`
	// Focus is the focused element; the classification of a key press is recomputed from it.
	Focus *focusV2 `json:"focus,omitempty"`
}

// sizeV2 is a width and a height in pixels: CSS pixels for a viewport, image pixels for a
// screenshot.
type sizeV2 struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// focusV2 is the element with the keyboard focus, and what Enter in it submits.
type focusV2 struct {
	Role      string `json:"role"`
	Name      string `json:"name"`
	Submits   bool   `json:"submits,omitempty"`
	Submitter string `json:"submitter,omitempty"`
}

// regionV2 is an area of the page the accessibility snapshot cannot describe.
type regionV2 struct {
	Kind string `json:"kind"`
	What string `json:"what"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
	W    int    `json:"w"`
	H    int    `json:"h"`
}

// transferV2 is a file a step uploaded or saved.
type transferV2 struct {
	Kind    string `json:"kind"`
	Offered string `json:"offered"`
	Saved   string `json:"saved"`
	Bytes   int64  `json:"bytes"`
}

type stepV2 struct {
	Index  int      `json:"index"`
	Action actionV2 `json:"action"`
	// Provenance is "observed" for an action an outside agent took unseen, which has no
	// reason, model turns, approvals or decision; absent for a proposed one.
	Provenance string `json:"provenance,omitempty"`
	Reason     string `json:"reason,omitempty"`
	// Evidence says what Observatory cannot vouch for in an observed step's evidence.
	Evidence       string            `json:"evidence,omitempty"`
	Decision       decisionV2        `json:"decision"`
	Resolved       string            `json:"resolved,omitempty"`
	Before         sampleV2          `json:"before"`
	After          sampleV2          `json:"after"`
	Distance       float64           `json:"distance"`
	StartMS        int64             `json:"start_ms"`
	DurationMS     int64             `json:"duration_ms"`
	Blocked        []string          `json:"blocked,omitempty"`
	Transfers      []transferV2      `json:"transfers,omitempty"`
	Error          string            `json:"error,omitempty"`
	Guidance       string            `json:"guidance,omitempty"`
	Output         string            `json:"output,omitempty"`
	Approvals      []approvalV2      `json:"approvals,omitempty"`
	Reconciliation *reconciliationV2 `json:"reconciliation,omitempty"`
	ModelTurns     []modelTurnV2     `json:"model_turns,omitempty"`
	TargetBox      *boxV2            `json:"target_box,omitempty"`
	Candidates     []candidateV2     `json:"candidates,omitempty"`
	Unresolved     bool              `json:"unresolved,omitempty"`
	trafficV2
}

type eventV2 struct {
	Seq  int               `json:"seq"`
	AtMS int64             `json:"at_ms"`
	Type string            `json:"type"`
	Data map[string]string `json:"data,omitempty"`
}

type answerV2 struct {
	Condition string          `json:"condition"`
	Kind      string          `json:"kind"`
	Raw       json.RawMessage `json:"raw,omitempty"`
	Error     string          `json:"error,omitempty"`
}

type verdictV2 struct {
	Done        bool   `json:"done"`
	Evidence    string `json:"evidence"`
	Unconfirmed string `json:"unconfirmed,omitempty"`
	// Check is the condition as its task file wrote it; absent for checks written in code,
	// and in files from before it was recorded.
	Check string `json:"check,omitempty"`
}

type signalV2 struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	verdictV2
}

type conditionV2 struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	verdictV2
}

type gateV2 struct {
	Done       bool          `json:"done"`
	Conditions []conditionV2 `json:"conditions"`
}

type verdictsV2 struct {
	Truth   signalV2   `json:"truth"`
	Signals []signalV2 `json:"signals"`
	Gate    gateV2     `json:"gate"`
}
