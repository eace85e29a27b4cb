package model

import (
	"encoding/json"
	"fmt"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/jsonstrict"
)

// Tool names: the task-file action set, scroll, and the two the planner answers itself.
const (
	toolReadPageText = "read_page_text"
	toolDone         = "done"
	toolScroll       = "scroll"
)

// tool is one function the model may call, with its JSON-schema parameters.
type tool struct {
	Name        string
	Description string
	Params      map[string]any
}

// schemaJSON is the tool's parameter schema as JSON text, for estimates.
func (t tool) schemaJSON() []byte {
	b, _ := json.Marshal(t.Params)
	return b
}

// targetSchema names one element by exactly one locator.
var targetSchema = map[string]any{
	"type": "object",
	"description": "The one element to act on, by exactly one locator: role (with the exact " +
		"accessible name), label, test_id or text. It must match exactly one element.",
	"properties": map[string]any{
		"role":    map[string]any{"type": "string", "description": `ARIA role, e.g. "button", "textbox", "combobox", "link"`},
		"name":    map[string]any{"type": "string", "description": "exact accessible name, with role"},
		"label":   map[string]any{"type": "string", "description": "text of the control's label"},
		"test_id": map[string]any{"type": "string", "description": "the element's data-testid"},
		"text":    map[string]any{"type": "string", "description": "the element's visible text"},
	},
	"additionalProperties": false,
}

var reasonSchema = map[string]any{"type": "string", "description": "why this action, in one sentence"}

// params builds an object schema from named properties; every one listed in required is.
func params(props map[string]any, required ...string) map[string]any {
	props["reason"] = reasonSchema
	return map[string]any{"type": "object", "properties": props, "required": append(required, "reason"),
		"additionalProperties": false}
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

// tools are the functions offered to the model, in the order task files document actions.
var tools = []tool{
	{"click", "Click the target.", params(map[string]any{"target": targetSchema}, "target")},
	{"fill", "Type a value into the target text field, replacing what is there.",
		params(map[string]any{"target": targetSchema, "value": str("text to type")}, "target", "value")},
	{"select", "Choose an option of the target select box, by value or label.",
		params(map[string]any{"target": targetSchema, "value": str("the option's value or label")}, "target", "value")},
	{"check", "Tick the target checkbox or radio button.", params(map[string]any{"target": targetSchema}, "target")},
	{"uncheck", "Untick the target checkbox.", params(map[string]any{"target": targetSchema}, "target")},
	{"press", "Press a key or chord (\"Enter\", \"Control+Enter\"), on the target or else the focused element.",
		params(map[string]any{"key": str("key or chord"), "target": targetSchema}, "key")},
	{"hover", "Move the pointer over the target.", params(map[string]any{"target": targetSchema}, "target")},
	{"navigate", "Load a URL.", params(map[string]any{"url": str("absolute URL")}, "url")},
	{toolScroll, "Scroll the page one screen down or up (a PageDown or PageUp key press).",
		params(map[string]any{"direction": map[string]any{"type": "string", "enum": []string{"down", "up"}}}, "direction")},
	{"wait_for", "Wait until the target is visible.", params(map[string]any{"target": targetSchema}, "target")},
	{"upload", "Give the target file input a file from the task's uploads folder. Sending a file to a " +
		"website cannot be taken back, so the user is asked first; only files inside that folder can be sent.",
		params(map[string]any{"target": targetSchema, "value": str("the file's path inside the uploads folder, e.g. \"report.pdf\"")}, "target", "value")},
	{"download", "Click the target and save the file it downloads into the task's downloads folder, under a safe name.",
		params(map[string]any{"target": targetSchema}, "target")},
	{toolReadPageText, "Read the page's full visible text (bounded); touches nothing.", params(map[string]any{})},
	{toolDone, "Say the task is complete. An independent check of the app's real state then decides; " +
		"your claim is not the verdict.", params(map[string]any{})},
}

// toolNames lists the tools' names, for error messages.
func toolNames() string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// callArgs are every tool's arguments; each tool reads its own.
type callArgs struct {
	Target    *target `json:"target"`
	Value     string  `json:"value"`
	Key       string  `json:"key"`
	URL       string  `json:"url"`
	Direction string  `json:"direction"`
	Reason    string  `json:"reason"`
}

// target is a tool call's locator.
type target struct {
	Role   string `json:"role"`
	Name   string `json:"name"`
	Label  string `json:"label"`
	TestID string `json:"test_id"`
	Text   string `json:"text"`
}

// parsed is what a tool call asks for: a browser action, or a tool the planner answers.
type parsed struct {
	Name   string
	Action agent.Action // set for a browser action and for done (a verify)
	Reason string
}

// parseCall checks a tool call and turns it into what it asks for. An error is for the
// model: it says what is wrong in a way it can correct.
func parseCall(c toolCall) (parsed, error) {
	var a callArgs
	if !knownTool(c.Name) {
		return parsed{}, fmt.Errorf("unknown tool %q; the tools are %s", c.Name, toolNames())
	}
	args := strings.TrimSpace(c.Args)
	if args == "" {
		args = "{}"
	}
	if err := jsonstrict.Unmarshal([]byte(args), &a); err != nil {
		return parsed{}, fmt.Errorf("arguments of %s are not valid JSON for its parameters: %v", c.Name, err)
	}
	p := parsed{Name: c.Name, Reason: strings.TrimSpace(a.Reason)}
	kind := agent.ActionKind(c.Name)
	switch c.Name {
	case toolReadPageText:
		return p, nil
	case toolDone:
		p.Action = agent.Action{Kind: agent.ActVerify, Description: "model says done"}
		return p, nil
	case toolScroll:
		key := map[string]string{"down": "PageDown", "up": "PageUp"}[a.Direction]
		if key == "" {
			return parsed{}, fmt.Errorf("scroll needs direction \"down\" or \"up\", not %q", a.Direction)
		}
		p.Action = agent.Action{Kind: agent.ActPress, Value: key, Description: "scroll " + a.Direction}
		return p, nil
	case "press":
		a.Value = a.Key
	case "navigate":
		a.Value = a.URL
	}
	p.Action = agent.Action{Kind: kind, Value: a.Value}
	if a.Target != nil {
		t, err := a.Target.toAgent()
		if err != nil {
			return parsed{}, fmt.Errorf("%s: %v", c.Name, err)
		}
		p.Action.Target = t
	}
	switch {
	case kind.NeedsTarget() && p.Action.Target.IsZero():
		return parsed{}, fmt.Errorf("%s needs a target: one of role (with name), label, test_id or text", c.Name)
	case kind.NeedsValue() && a.Value == "":
		return parsed{}, fmt.Errorf("%s needs a non-empty %s", c.Name, valueArg(c.Name))
	}
	p.Action.Description = describe(p.Action)
	return p, nil
}

// valueArg names the argument a tool's action value comes from.
func valueArg(name string) string {
	switch name {
	case "press":
		return "key"
	case "navigate":
		return "url"
	}
	return "value"
}

func knownTool(name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// toAgent checks that t sets exactly one locator (a name only with a role).
func (t target) toAgent() (agent.Target, error) {
	at := agent.Target{Role: strings.TrimSpace(t.Role), Name: t.Name, Label: t.Label, TestID: t.TestID, Text: t.Text}
	switch {
	case at.Name != "" && at.Role == "":
		return agent.Target{}, fmt.Errorf("target has a name but no role; give the role too")
	case at.Locators() != 1:
		return agent.Target{}, fmt.Errorf("target must use exactly one locator (role with name, label, test_id or text), it uses %d", at.Locators())
	}
	return at, nil
}

// describe is the step's sentence, as plans show it: "fill textbox[Reservation title] with
// "Spectral scan"".
func describe(a agent.Action) string {
	s := string(a.Kind)
	if t := a.Target.String(); t != "" {
		s += " " + t
	}
	switch a.Kind {
	case agent.ActFill, agent.ActSelect, agent.ActUpload:
		s += " with " + quoteValue(a.Value)
	case agent.ActPress:
		s += " " + a.Value
	case agent.ActNavigate:
		s += " to " + a.Value
	}
	return s
}

func quoteValue(v string) string {
	b, _ := json.Marshal(v)
	return string(b)
}
