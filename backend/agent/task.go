package agent

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Task is what the user asked for, as data: the Intent record. It says where the attempt
// starts and which origins it may load; what counts as done is the task's oracle's business.
type Task struct {
	// Name names the task in tables, history and run files ("booking").
	Name string `json:"name"`
	// Intent is the user's request, kept word for word.
	Intent string `json:"intent"`
	// StartURL is where every attempt begins. It may be relative to the site's base URL.
	StartURL string `json:"start_url"`
	// Origins are the origins ("http://127.0.0.1:8080") the attempt may load; a navigation or
	// request elsewhere is blocked and recorded. Empty allows only the start URL's origin.
	Origins []string `json:"origins,omitempty"`
	// Uploads is the folder an upload's file must lie in (symlinks followed, `..` refused);
	// empty allows no upload.
	Uploads string `json:"uploads,omitempty"`
	// Downloads is the folder downloads are saved in, under safe names that never overwrite;
	// empty allows no download.
	Downloads string `json:"downloads,omitempty"`
	// Authority says where the principal, the relevant text and the version are read, and
	// how fresh a commit's observation must be; nil when the task declares none.
	Authority *Authority `json:"authority,omitempty"`
	// Notices are where the task's named notices are shown, each read on every observation
	// (Sample.Notices); empty when it names none.
	Notices []NoticePlace `json:"notices,omitempty"`
}

// ActionKind says what an action does to the page.
type ActionKind string

// The kinds of action the executor can carry out.
const (
	ActClick    ActionKind = "click"
	ActFill     ActionKind = "fill"
	ActSelect   ActionKind = "select"
	ActCheck    ActionKind = "check"
	ActUncheck  ActionKind = "uncheck"
	ActPress    ActionKind = "press"    // Value is a key or chord ("Enter", "Control+Enter")
	ActHover    ActionKind = "hover"    // moves the pointer over the target
	ActNavigate ActionKind = "navigate" // Value is the URL to load
	ActWaitFor  ActionKind = "wait_for" // waits until the target is shown, up to the action timeout
	// ActSubmit clicks the control that submits a form.
	ActSubmit ActionKind = "submit"
	// ActVerify touches nothing: it waits on the completion gate under the wait policy.
	ActVerify ActionKind = "verify"
	// ActUpload gives the target (a file input) the file Value names, a path inside the
	// task's uploads folder. Sending a file off the page cannot be taken back.
	ActUpload ActionKind = "upload"
	// ActDownload clicks the target and saves the file it starts into the task's downloads
	// folder, under a safe name that never overwrites one there.
	ActDownload ActionKind = "download"
	// ActEvaluate runs Value, a JavaScript function, in the page (on the target's element when
	// there is one) and returns its result (Step.Output). Only an agent's driver proposes it
	// (browser_evaluate over MCP), never a plan: it is not among ActionKinds. An arbitrary
	// script can change anything, so it is at least a mutation, admitted as the task's
	// safeguards.scripts says.
	ActEvaluate ActionKind = "evaluate"
)

// The kinds only an agent's driver proposes (Playwright MCP's tools over MCP), never a plan:
// like ActEvaluate they are not among ActionKinds. Each is a recorded step like any other.
const (
	// ActDrag drags Target's element onto To's.
	ActDrag ActionKind = "drag"
	// ActResize sets the page's viewport to Value, "<width>x<height>" in CSS pixels.
	ActResize ActionKind = "resize"
	// ActTabNew opens a tab in the attempt's browser context and drives it from now on;
	// Value is the URL it loads, or empty for a blank tab.
	ActTabNew ActionKind = "tab_new"
	// ActTabSelect drives the tab at index Value (0-based, in the order the context lists
	// its pages) from now on.
	ActTabSelect ActionKind = "tab_select"
	// ActTabClose closes the tab at index Value, or the driven one when Value is empty.
	ActTabClose ActionKind = "tab_close"
	// ActClose closes the driven tab and every other of the attempt: the attempt goes on on
	// a fresh blank tab of the same context, as Playwright MCP's next call opens one.
	ActClose ActionKind = "close"
	// ActDialogAccept accepts the JavaScript dialog the page left open (see DialogKeeper),
	// with Value as a prompt's answer; ActDialogDismiss dismisses it.
	ActDialogAccept  ActionKind = "dialog_accept"
	ActDialogDismiss ActionKind = "dialog_dismiss"
)

// ActionKinds lists every kind, in the order documentation shows them.
var ActionKinds = []ActionKind{ActClick, ActFill, ActSelect, ActCheck, ActUncheck, ActPress,
	ActHover, ActNavigate, ActWaitFor, ActSubmit, ActVerify, ActUpload, ActDownload}

// NeedsTarget reports whether an action of kind k must name a target. A press without one
// goes to the focused element.
func (k ActionKind) NeedsTarget() bool {
	switch k {
	case ActNavigate, ActVerify, ActPress:
		return false
	}
	return true
}

// NeedsValue reports whether an action of kind k must carry a value.
func (k ActionKind) NeedsValue() bool {
	switch k {
	case ActFill, ActSelect, ActPress, ActNavigate, ActUpload:
		return true
	}
	return false
}

// Target names one element. Exactly one locator is set: Role (with an exact accessible Name,
// or none), Label, Placeholder, TestID, Text, or CSS as a last resort. It must resolve to
// exactly one element on the page.
type Target struct {
	Role        string `json:"role,omitempty"`
	Name        string `json:"name,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	TestID      string `json:"test_id,omitempty"`
	Text        string `json:"text,omitempty"`
	CSS         string `json:"css,omitempty"`
	// Alias is the one declared alternate for the locator's text (the accessible name, label,
	// placeholder or text) that the alias selector policy may try when the target matches
	// nothing. Empty when the element has none.
	Alias string `json:"alias,omitempty"`
	// Frames are the iframes the element is inside, outermost first; none for the page itself.
	Frames FramePath `json:"frame,omitzero"`
	// Within is the container the element is inside (a row, region, list item or dialog),
	// for a control repeated on the page; the zero Container for the whole page or frame.
	Within Container `json:"within,omitzero"`
}

// MaxFrameDepth bounds how deeply nested the frame a target names can be.
const MaxFrameDepth = 4

// FramePath is the iframes a target is inside, outermost first, the rest zero: an array, so
// that a Target stays comparable. Its JSON is the list of the frames.
type FramePath [MaxFrameDepth]FrameRef

// FramesOf is the path of list, outermost first; more than MaxFrameDepth frames is an error.
func FramesOf(list []FrameRef) (FramePath, error) {
	var p FramePath
	if len(list) > MaxFrameDepth {
		return p, fmt.Errorf("%d frames nested: at most %d", len(list), MaxFrameDepth)
	}
	copy(p[:], list)
	return p, nil
}

// List is the frames of p, outermost first; none for the page itself.
func (p FramePath) List() []FrameRef {
	n := 0
	for n < len(p) && p[n] != (FrameRef{}) {
		n++
	}
	return p[:n:n]
}

// IsZero reports whether p names no frame.
func (p FramePath) IsZero() bool { return p == FramePath{} }

// MarshalJSON writes the list of frames.
func (p FramePath) MarshalJSON() ([]byte, error) { return json.Marshal(p.List()) }

// UnmarshalJSON reads a list of frames.
func (p *FramePath) UnmarshalJSON(data []byte) error {
	var list []FrameRef
	if err := json.Unmarshal(data, &list); err != nil {
		return err
	}
	path, err := FramesOf(list)
	*p = path
	return err
}

// FrameRef names one iframe: by its title, its name attribute, or CSS.
type FrameRef struct {
	Title string `json:"title,omitempty"`
	Name  string `json:"name,omitempty"`
	CSS   string `json:"css,omitempty"`
}

// Container names the container a target lies within: a role, with text its accessible name
// contains (a row's name is its cells' text: row "Invoice 42"), an element with a test id,
// or CSS.
type Container struct {
	Role   string `json:"role,omitempty"`
	Name   string `json:"name,omitempty"`
	TestID string `json:"test_id,omitempty"`
	CSS    string `json:"css,omitempty"`
}

// String renders c as messages show it: role "name", test_id "id" or css "selector".
func (c Container) String() string {
	switch {
	case c.Role != "" && c.Name != "":
		return c.Role + " " + quote(c.Name)
	case c.Role != "":
		return c.Role
	case c.TestID != "":
		return "test_id " + quote(c.TestID)
	}
	return "css " + quote(c.CSS)
}

// String renders f as messages show it: frame "title", frame name "name" or frame css "selector".
func (f FrameRef) String() string {
	switch {
	case f.Title != "":
		return "frame " + quote(f.Title)
	case f.Name != "":
		return "frame name " + quote(f.Name)
	}
	return "frame css " + quote(f.CSS)
}

// IsZero reports whether c names no container.
func (c Container) IsZero() bool { return c == Container{} }

// Locator says which locator t uses and its text: "role" (with Name), "label", "placeholder",
// "test_id", "text" or "css"; "" when none is set.
func (t Target) Locator() (kind, text string) {
	switch {
	case t.Role != "":
		return "role", t.Name
	case t.Label != "":
		return "label", t.Label
	case t.Placeholder != "":
		return "placeholder", t.Placeholder
	case t.TestID != "":
		return "test_id", t.TestID
	case t.Text != "":
		return "text", t.Text
	case t.CSS != "":
		return "css", t.CSS
	}
	return "", ""
}

// Locators counts the locators set on t; a valid target has exactly one.
func (t Target) Locators() int {
	n := 0
	for _, s := range []string{t.Role, t.Label, t.Placeholder, t.TestID, t.Text, t.CSS} {
		if s != "" {
			n++
		}
	}
	return n
}

// IsZero reports whether t names nothing.
func (t Target) IsZero() bool { return t == Target{} }

// WithAlias returns t with its alias in place of its locator's text, and no alias.
func (t Target) WithAlias() Target {
	a := t.Alias
	t.Alias = ""
	switch kind, _ := t.Locator(); kind {
	case "role":
		t.Name = a
	case "label":
		t.Label = a
	case "placeholder":
		t.Placeholder = a
	case "text":
		t.Text = a
	}
	return t
}

// TextOf is the locator's text, the accessible name for a role target.
func (t Target) TextOf() string {
	_, s := t.Locator()
	return s
}

// String renders the target the way plans show it: role[name] for a role, kind "text"
// otherwise, then where it lies: within its container, in its frames.
func (t Target) String() string {
	kind, text := t.Locator()
	var s string
	switch kind {
	case "":
		return ""
	case "role":
		s = t.Role + "[" + t.Name + "]"
	default:
		s = kind + " " + quote(text)
	}
	if !t.Within.IsZero() {
		s += " within " + t.Within.String()
	}
	frames := t.Frames.List()
	for i := len(frames) - 1; i >= 0; i-- {
		s += " in " + frames[i].String()
	}
	return s
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Action is one planned step: the planner's proposal, before policy has looked at it.
type Action struct {
	// ID is stable within a plan ("open-dialog").
	ID string `json:"id"`
	// Description is the human sentence for the step; Parallax's rule reads it.
	Description string     `json:"description"`
	Kind        ActionKind `json:"kind"`
	Target      Target     `json:"target"`
	// To is where a drag (ActDrag) drops its target; nil for every other kind.
	To *Target `json:"to,omitempty"`
	// Value is typed, selected, pressed, navigated to or uploaded; empty for clicks.
	Value string `json:"value,omitempty"`
	// Secret marks a value that must never be recorded: samples and screenshots mask it.
	Secret bool `json:"secret,omitempty"`
	// Optional marks an action on what may not be there (a welcome guide, a cookie banner):
	// when its target matches nothing, the step is skipped (see Step.Skipped), not failed.
	Optional bool `json:"optional,omitempty"`
	// Setup marks a step of the session's setup (signing in): it runs and is recorded as
	// the task's steps are, but it is not part of what the attempt is judged on (Parallax
	// leaves it out).
	Setup bool `json:"setup,omitempty"`
	// Condition names the gate's condition (its id) a wait_for waits for instead of a target.
	Condition string `json:"condition,omitempty"`
	// TimeoutMS is how long the action may wait for its target to be there and actionable (a
	// wait_for, to be shown), in milliseconds; 0 is the browser's own bound (5 s).
	TimeoutMS int `json:"timeout_ms,omitempty"`
}

// MaxActionTimeoutMS bounds an action's own timeout: two minutes.
const MaxActionTimeoutMS = 120000

// Plan is an ordered list of actions.
type Plan []Action

// Redacted is a with a secret value replaced by a mask, as it may be recorded.
func (a Action) Redacted() Action {
	if a.Secret {
		a.Value = Mask
	}
	return a
}
