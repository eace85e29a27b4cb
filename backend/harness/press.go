package harness

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// chord is a key press read from its Playwright name ("Enter", "Control+Shift+Enter", " ").
type chord struct {
	key string // lower case: "enter", "space", "escape", "a"
	// send is set when Control or Meta is held: Control/Meta+Enter sends from a text field.
	send bool
}

// parseChord reads a key or chord; the modifiers are every part but the last.
func parseChord(v string) chord {
	parts := strings.Split(v, "+")
	key := parts[len(parts)-1]
	if key == "" && len(parts) > 1 { // "Control++": the plus key
		key = "+"
	}
	c := chord{key: strings.ToLower(key)}
	switch c.key {
	case " ", "spacebar":
		c.key = "space"
	case "return", "numpadenter":
		c.key = "enter"
	}
	for _, m := range parts[:len(parts)-1] {
		switch strings.ToLower(m) {
		case "control", "ctrl", "meta", "cmd", "command", "controlormeta":
			c.send = true
		}
	}
	return c
}

// textRoles are the roles of fields a key types into rather than activates.
var textRoles = map[string]bool{"textbox": true, "searchbox": true, "combobox": true, "spinbutton": true}

// receiver is the element a key press goes to: the action's target, or else the focused
// element. Field says it is typed into; Submits and Submitter are what Enter in it would
// submit, known when the element is the focused one.
type receiver struct {
	role, name string
	field      bool
	known      bool // there is an element at all
	focus      *agent.Focus
}

// receiverOf is where a's key goes: its target (whose role and submitter the focus tells,
// when the focused element is that target), or the focused element. A target named by its
// label or placeholder is a field.
func receiverOf(a agent.Action, focus *agent.Focus) receiver {
	if a.Target.IsZero() {
		if focus == nil {
			return receiver{}
		}
		return receiver{role: focus.Role, name: focus.Name, field: textRoles[focus.Role], known: true, focus: focus}
	}
	kind, name := a.Target.Locator()
	r := receiver{role: a.Target.Role, name: name, known: true,
		field: textRoles[a.Target.Role] || (a.Target.Role == "" && (kind == "label" || kind == "placeholder"))}
	if focus != nil && strings.EqualFold(strings.TrimSpace(focus.Name), strings.TrimSpace(name)) && (a.Target.Role == "" || a.Target.Role == focus.Role) {
		r.role, r.field, r.focus = focus.Role, textRoles[focus.Role], focus
	}
	return r
}

// classifyKey says what a key press would do: Control/Meta+Enter sends from a text field, so
// it is irreversible wherever it is pressed; Enter or Space on a control activates it, so it
// is classified as a click on that control would be (Enter on Send is irreversible, on a link
// it navigates); Enter in a field that submits its form presses the form's default button,
// and is classified as a click on that button, or is irreversible when the form has no button
// to name what it sends. Any other key (a letter, Tab, Escape, Enter in a text area or where
// nothing has the focus) changes only the page.
func classifyKey(a agent.Action, focus *agent.Focus) Classification {
	c, r := parseChord(a.Value), receiverOf(a, focus)
	where := "the page"
	if r.known {
		where = fmt.Sprintf("%s %q", roleOr(r.role), r.name)
	}
	switch {
	case c.key == "enter" && c.send:
		return irreversible(r.name, fmt.Sprintf("%s on %s sends from a text field", a.Value, where)).on(r.name)
	case !r.known || (c.key != "enter" && c.key != "space"):
	case !r.field:
		on := Classify(agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: r.role, Name: r.name}}, agent.Sample{})
		if r.role == "" {
			on = Classify(agent.Action{Kind: agent.ActClick, Target: agent.Target{Text: r.name}}, agent.Sample{})
		}
		on.Why = fmt.Sprintf("%s on %s activates it, as a click would: %s", a.Value, where, on.Why)
		return on
	case c.key == "enter" && r.focus != nil && r.focus.Submits && r.focus.Submitter != "":
		on := Classify(agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: r.focus.Submitter}}, agent.Sample{})
		on.Why = fmt.Sprintf("%s in %s submits its form through %q: %s", a.Value, where, r.focus.Submitter, on.Why)
		return on
	case c.key == "enter" && r.focus != nil && r.focus.Submits:
		return irreversible("", fmt.Sprintf("%s in %s submits its form, which has no button to say what it sends", a.Value, where))
	}
	return classified(agent.ContractMutate, fmt.Sprintf("%s on %s changes only the page", a.Value, where)).on(r.name)
}

func roleOr(role string) string {
	if role == "" {
		return "element"
	}
	return role
}
