package taskfile

import (
	"encoding/json"
)

// SchemaV1 is the schema a task file names in its schema field.
const SchemaV1 = "observatory.task/v1"

// Document is an observatory.task/v1 task file as written: the file format's own types,
// mapped to the domain explicitly (see build.go), never the agent's types serialized. Its
// JSON encoding is the normalized document a run file carries.
type Document struct {
	Schema string `json:"schema"`
	// Name names the task: a slug, as tables, history and run files show it.
	Name string `json:"name"`
	// Intent is the user's request, kept verbatim.
	Intent string `json:"intent"`
	// BaseURL is what relative URLs resolve against; ${NAME} reads an environment variable.
	BaseURL  string   `json:"base_url,omitempty"`
	StartURL string   `json:"start_url"`
	Origins  []string `json:"origins,omitempty"`
	// Lab names a built-in lab the task runs against, started fresh for each attempt.
	Lab     string   `json:"lab,omitempty"`
	Session *Session `json:"session,omitempty"`
	// Authority says where the signed-in account, the relevant text and the version are
	// read, and how fresh a commit's observation must be.
	Authority *Authority `json:"authority,omitempty"`
	// Uploads is the folder, relative to the task file, that upload steps take files from;
	// Downloads the folder downloads are saved in. Without them, uploads and downloads are
	// refused.
	Uploads   string `json:"uploads,omitempty"`
	Downloads string `json:"downloads,omitempty"`
	Plan      []Step `json:"plan,omitempty"`
	// Planner says who plans the attempts: the plan, or a model (the default without a plan).
	Planner *Planning `json:"planner,omitempty"`
	// Agent names the task's own agent process, run only when the user asks for it (run
	// --agent): a task file from someone else never starts a program by itself.
	Agent   *AgentSection `json:"agent,omitempty"`
	Success []Condition   `json:"success"`
	Signals []Signal      `json:"signals,omitempty"`
	Truth   *Truth        `json:"truth,omitempty"`
	Config  *Config       `json:"config,omitempty"`
	// Budgets bound what each attempt, and the whole run, may spend.
	Budgets *BudgetsSection `json:"budgets,omitempty"`
	// Safeguards are what irreversible actions get: review and approval.
	Safeguards *Safeguards `json:"safeguards,omitempty"`
	Attempts   []Attempt   `json:"attempts,omitempty"`
}

// Session starts an attempt signed in: from a Playwright storage-state file, or by setup
// steps run before the plan.
type Session struct {
	StorageState string `json:"storage_state,omitempty"`
	Setup        []Step `json:"setup,omitempty"`
}

// Authority is a task's declaration of whose authority its actions run under and which text
// justifies them; every field is optional.
type Authority struct {
	Principal   *Probe  `json:"principal,omitempty"`
	Relevant    []Probe `json:"relevant,omitempty"`
	Version     *Probe  `json:"version,omitempty"`
	FreshnessMS *int    `json:"freshness_ms,omitempty"`
}

// Probe says where one fact is read: exactly one of an element's test id or CSS selector, a
// cookie or a local-storage key. A relevant text names its fact with ID.
type Probe struct {
	ID      string `json:"id,omitempty"`
	TestID  string `json:"test_id,omitempty"`
	CSS     string `json:"css,omitempty"`
	Cookie  string `json:"cookie,omitempty"`
	Storage string `json:"storage,omitempty"`
}

// Step is one scripted action.
type Step struct {
	ID          string  `json:"id,omitempty"`
	Description string  `json:"description"`
	Action      string  `json:"action"`
	Target      *Target `json:"target,omitempty"`
	Value       *string `json:"value,omitempty"`
	// ValueEnv names the environment variable holding the value; such a value is secret.
	ValueEnv string `json:"value_env,omitempty"`
	Secret   bool   `json:"secret,omitempty"`
	// Optional marks a step for what may not be there (a welcome guide, a cookie banner):
	// when its target matches nothing it is recorded as skipped, never as a failure.
	Optional bool `json:"optional,omitempty"`
	// Condition names the success condition a wait_for step waits for, instead of a target.
	Condition string `json:"condition,omitempty"`
	// TimeoutMS is how long the step waits for its target (a slow editor, a late button), in
	// place of the 5 s default.
	TimeoutMS int `json:"timeout_ms,omitempty"`
}

// Target names one element by exactly one locator, with an optional alias.
type Target struct {
	Role        string `json:"role,omitempty"`
	Name        string `json:"name,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	TestID      string `json:"test_id,omitempty"`
	Text        string `json:"text,omitempty"`
	CSS         string `json:"css,omitempty"`
	Alias       string `json:"alias,omitempty"`
	// Frame names the iframe the element is in: one, or a list, outermost first.
	Frame FramePath `json:"frame,omitempty"`
	// Within names the container the element is in: a row, region, list item or dialog.
	Within *Container `json:"within,omitempty"`
}

// FrameRef names one iframe by exactly one of its title, its name attribute, or CSS.
type FrameRef struct {
	Title string `json:"title,omitempty"`
	Name  string `json:"name,omitempty"`
	CSS   string `json:"css,omitempty"`
}

// FramePath is one frame ({title: Editor}) or a list of nested frames, outermost first.
type FramePath []FrameRef

func (f *FramePath) decodeTree(n *node, path string) error {
	switch n.kind {
	case kObject:
		var one FrameRef
		if err := decode(n, path, &one); err != nil {
			return err
		}
		*f = FramePath{one}
		return nil
	case kList:
		return decode(n, path, (*[]FrameRef)(f))
	}
	return errAt(path, "want a frame ({title: …}) or a list of frames, got %s", n.kind.what())
}

// Container names the container a target is in by exactly one of a role (with text its
// accessible name contains: a row's name is its cells' text), a test id, or CSS.
type Container struct {
	Role   string `json:"role,omitempty"`
	Name   string `json:"name,omitempty"`
	TestID string `json:"test_id,omitempty"`
	CSS    string `json:"css,omitempty"`
}

// Condition is one named check of authoritative state: exactly one of Page, HTTP, SQL.
type Condition struct {
	ID    string     `json:"id"`
	Label string     `json:"label,omitempty"`
	Page  *PageCheck `json:"page,omitempty"`
	HTTP  *HTTPCheck `json:"http,omitempty"`
	SQL   *SQLCheck  `json:"sql,omitempty"`
}

// PageCheck is what the page shows: exactly one of Visible, Value, Text, URL (a regular
// expression); with Frame, what that iframe shows.
type PageCheck struct {
	Visible *Target     `json:"visible,omitempty"`
	Value   *ValueCheck `json:"value,omitempty"`
	Text    *string     `json:"text,omitempty"`
	URL     *string     `json:"url,omitempty"`
	// Frame names the iframe the condition reads inside, by title or name: one, or a list
	// outermost first.
	Frame FramePath `json:"frame,omitempty"`
}

// ValueCheck is a field whose value must equal Equals.
type ValueCheck struct {
	Target *Target `json:"target"`
	Equals *string `json:"equals"`
}

// HTTPCheck asks an endpoint; Expr is CEL over status and body.
type HTTPCheck struct {
	Method string `json:"method,omitempty"`
	URL    string `json:"url"`
	// Headers' values may read environment variables as ${NAME}; they are never stored.
	Headers map[string]string `json:"headers,omitempty"`
	// Pick is CEL over status and body whose value is what the answer keeps of the body (and
	// what Expr sees as body); empty keeps the whole body.
	Pick string `json:"pick,omitempty"`
	// EvidenceKiB bounds what the answer keeps, after Pick; 0 is oracle.MaxBody.
	EvidenceKiB int    `json:"evidence_kib,omitempty"`
	Expr        string `json:"expr"`
	// Says is what Expr checks in the task's own words ("the reservation is in north"): a
	// verdict's evidence gives it beside what the answer showed.
	Says string `json:"says,omitempty"`
}

// SQLCheck runs a query; Expr is CEL over rows.
type SQLCheck struct {
	Driver string `json:"driver"`
	// Path is the SQLite file, relative to the task file; ${NAME} reads the environment.
	Path string `json:"path,omitempty"`
	// DSNEnv names the environment variable holding the PostgreSQL or MySQL DSN.
	DSNEnv string `json:"dsn_env,omitempty"`
	Query  string `json:"query"`
	// EvidenceKiB bounds the rows the answer keeps; 0 is 64 KiB.
	EvidenceKiB int    `json:"evidence_kib,omitempty"`
	Expr        string `json:"expr"`
	// Says is what Expr checks in the task's own words ("the reservation is in north"): a
	// verdict's evidence gives it beside what the answer showed.
	Says string `json:"says,omitempty"`
}

// Signal is one weaker check to compare with ground truth: exactly one of Notice (the
// success notice), Parallax (Parallax's rule), Page or Judge (a model judge).
type Signal struct {
	ID       string      `json:"id"`
	Label    string      `json:"label,omitempty"`
	Notice   *Notice     `json:"notice,omitempty"`
	Parallax *Parallax   `json:"parallax,omitempty"`
	Page     *PageCheck  `json:"page,omitempty"`
	Judge    *JudgeCheck `json:"judge,omitempty"`
}

// Notice is the success notice's text, and optionally where it is shown: `notice: Saved`
// reads what the page announces (its status, live regions and alerts), `notice: {text: Saved,
// target: {css: "#toast"}}` the element named, by test_id or css.
type Notice struct {
	Text   string  `json:"text"`
	Target *Target `json:"target,omitempty"`
}

// noticeFields is Notice without its methods, decoded and encoded field by field.
type noticeFields Notice

func (s *Notice) decodeTree(n *node, path string) error {
	switch n.kind {
	case kString:
		s.Text = n.s
		return nil
	case kObject:
		return decode(n, path, (*noticeFields)(s))
	}
	return errAt(path, "want the notice's text or {text, target}, got %s", n.kind.what())
}

// MarshalJSON writes the text alone when the notice names no place.
func (s Notice) MarshalJSON() ([]byte, error) {
	if s.Target == nil {
		return json.Marshal(s.Text)
	}
	return json.Marshal(noticeFields(s))
}

// Parallax selects Parallax's completion rule; it has no options.
type Parallax struct{}

// JudgeCheck is a model judge: once an attempt has ended, its models (asked in order until
// one answers) are shown the intent, the recorded actions and screenshots, and give a
// verdict. Recipe is "last-screenshots" (the default) or "key-points" (see docs/judges.md);
// Rubric adds the task's own criteria; Screenshots bounds the screenshots shown (default 3).
type JudgeCheck struct {
	Models      []ModelSpec `json:"models"`
	Recipe      string      `json:"recipe,omitempty"`
	Rubric      string      `json:"rubric,omitempty"`
	Screenshots int         `json:"screenshots,omitempty"`
}

// TruthLab is the truth field's value that takes ground truth from the lab.
const TruthLab = "lab"

// Truth is where ground truth comes from: the lab ("truth: lab") or conditions of its own (a
// list). A task without one takes the completion gate as ground truth.
type Truth struct {
	Lab        bool
	Conditions []Condition
}

func (t *Truth) decodeTree(n *node, path string) error {
	switch n.kind {
	case kString:
		if n.s != TruthLab {
			return errAt(path, "%q: want %q or a list of conditions", n.s, TruthLab)
		}
		t.Lab = true
		return nil
	case kList:
		return decode(n, path, &t.Conditions)
	}
	return errAt(path, "want %q or a list of conditions, got %s", TruthLab, n.kind.what())
}

// MarshalJSON writes "lab" or the list of conditions.
func (t Truth) MarshalJSON() ([]byte, error) {
	if t.Lab {
		return json.Marshal(TruthLab)
	}
	return json.Marshal(t.Conditions)
}

// Config sets some of an attempt's policies and limits (agent.Config); unset fields keep
// the defaults, or the task's own config for an attempt's.
type Config struct {
	Wait        *string `json:"wait,omitempty"`
	FixedWaitMS *int    `json:"fixed_wait_ms,omitempty"`
	PollMS      *int    `json:"poll_ms,omitempty"`
	DeadlineMS  *int    `json:"deadline_ms,omitempty"`
	Budget      *int    `json:"budget,omitempty"`
	Selectors   *string `json:"selectors,omitempty"`
}

// Attempt is one named variation: a lab's fault and parameters, config overrides, and
// safeguards in place of the task's.
type Attempt struct {
	Name       string         `json:"name"`
	Title      string         `json:"title,omitempty"`
	Fault      string         `json:"fault,omitempty"`
	Params     map[string]int `json:"params,omitempty"`
	Config     *Config        `json:"config,omitempty"`
	Safeguards *Safeguards    `json:"safeguards,omitempty"`
}
