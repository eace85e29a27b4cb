package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"observatory/backend/agent"
)

// Page judges what the page shows, from the executor's observation of it: a target is
// visible, a field has a value, a text is present, or the URL matches. Exactly one is set.
// With a frame, it judges what that iframe shows instead of the whole page.
type Page struct {
	visible *agent.Target
	value   *agent.Target
	equals  string
	text    string
	url     *regexp.Regexp
	frame   []agent.FrameRef
}

// PageSpec is a page condition as written: exactly one of Visible, Value (with Equals), Text
// or URL, and optionally the Frame (outermost first) it reads inside, each by its title or
// name attribute.
type PageSpec struct {
	Visible *agent.Target
	Value   *agent.Target
	Equals  string
	Text    *string
	URL     *string
	Frame   []agent.FrameRef
}

// NewPage compiles a page condition. A page condition reads an observation, which holds the
// page's roles and accessible names, its form fields and its text: targets are a role (with
// its name) or a label, or text for visible. Errors are *FieldError.
func NewPage(s PageSpec) (*Page, error) {
	set := 0
	for _, b := range []bool{s.Visible != nil, s.Value != nil, s.Text != nil, s.URL != nil} {
		if b {
			set++
		}
	}
	if set != 1 {
		return nil, fieldErr("", "give exactly one of visible, value, text, url")
	}
	if len(s.Frame) > agent.MaxFrameDepth {
		return nil, fieldErr("frame", "%d frames nested: at most %d", len(s.Frame), agent.MaxFrameDepth)
	}
	for _, f := range s.Frame {
		if f.CSS != "" || (f.Title == "") == (f.Name == "") {
			return nil, fieldErr("frame", "a page condition names a frame by exactly one of title, name: it reads the observation, which holds no CSS")
		}
	}
	p := &Page{frame: s.Frame}
	switch {
	case s.Visible != nil:
		if err := observable(*s.Visible, true); err != nil {
			return nil, fieldErr("visible", "%v", err)
		}
		p.visible = s.Visible
	case s.Value != nil:
		if err := observable(*s.Value, false); err != nil {
			return nil, fieldErr("value.target", "%v", err)
		}
		p.value, p.equals = s.Value, s.Equals
	case s.Text != nil:
		if *s.Text == "" {
			return nil, fieldErr("text", "give the text to look for")
		}
		p.text = *s.Text
	default:
		re, err := regexp.Compile(*s.URL)
		if err != nil || *s.URL == "" {
			return nil, fieldErr("url", "want a regular expression: %v", err)
		}
		p.url = re
	}
	return p, nil
}

// observable says why a page condition cannot see t in an observation, or returns nil.
func observable(t agent.Target, textOK bool) error {
	kind, s := t.Locator()
	switch {
	case t.Locators() != 1 && textOK:
		return fmt.Errorf("give exactly one of role, label, text")
	case t.Locators() != 1:
		return fmt.Errorf("give exactly one of role, label")
	case t.Alias != "":
		return fmt.Errorf("a page condition's target has no alias")
	case kind == "role", kind == "label" && s != "", kind == "text" && textOK:
		return nil
	}
	return fmt.Errorf("a page condition sees roles, names and text, not %s", kind)
}

// Kind is KindPage.
func (*Page) Kind() string { return KindPage }

// pageAnswer is the part of the observation a page condition judges. NoFrame says the frame
// it reads inside was not on the page.
type pageAnswer struct {
	URL     string        `json:"url"`
	Text    string        `json:"text,omitempty"`
	Matches []agent.Field `json:"matches,omitempty"`
	NoFrame bool          `json:"no_frame,omitempty"`
}

func (p *Page) ask(ctx context.Context, r *round) (json.RawMessage, error) {
	s, err := r.page(ctx)
	if err != nil {
		return nil, err
	}
	if len(p.frame) > 0 {
		view, ok := p.inFrame(s)
		if !ok {
			return encode(pageAnswer{URL: s.URL, NoFrame: true})
		}
		s = agent.Sample{URL: view.URL, Text: view.Text, Pairs: view.Pairs, Fields: view.Fields}
	}
	a := pageAnswer{URL: s.URL}
	switch {
	case p.visible != nil:
		if p.visible.Text != "" {
			a.Text = s.Text
		}
		for _, pr := range s.Pairs {
			if matches(*p.visible, pr.Role, pr.Name) {
				a.Matches = append(a.Matches, agent.Field{Role: pr.Role, Name: pr.Name})
			}
		}
	case p.value != nil:
		for _, f := range s.Fields {
			if matches(*p.value, f.Role, f.Name) {
				a.Matches = append(a.Matches, agent.Field{Role: f.Role, Name: f.Name, Value: f.Value})
			}
		}
	case p.text != "":
		a.Text = s.Text
	}
	if len(a.Matches) > MaxRows {
		a.Matches = a.Matches[:MaxRows]
	}
	return encode(a)
}

// inFrame is the view of the first shown iframe the condition's frame path names.
func (p *Page) inFrame(s agent.Sample) (agent.FrameView, bool) {
	for _, v := range s.Frames {
		if len(v.Path) != len(p.frame) {
			continue
		}
		ok := true
		for i, f := range p.frame {
			ok = ok && (f.Title == "" || f.Title == v.Path[i].Title) && (f.Name == "" || f.Name == v.Path[i].Name)
		}
		if ok {
			return v, true
		}
	}
	return agent.FrameView{}, false
}

// where names the frame the condition reads inside, or is empty for the page.
func (p *Page) where() string {
	var parts []string
	for _, f := range p.frame {
		if f.Title != "" {
			parts = append(parts, fmt.Sprintf("title %q", f.Title))
		} else {
			parts = append(parts, fmt.Sprintf("name %q", f.Name))
		}
	}
	return strings.Join(parts, " > ")
}

// matches reports whether an element with role and accessible name is what t names.
func matches(t agent.Target, role, name string) bool {
	if t.Role != "" {
		return role == t.Role && (t.Name == "" || name == t.Name)
	}
	return t.Label != "" && name == t.Label
}

// Judge decides from the recorded part of the observation.
func (p *Page) Judge(raw json.RawMessage) agent.Verdict {
	var a pageAnswer
	if err := unmarshalAnswer(raw, &a); err != nil {
		return agent.Unconfirmed(err.Error())
	}
	if a.NoFrame {
		return agent.Verdict{Evidence: fmt.Sprintf("no shown frame with %s on %s", p.where(), a.where())}
	}
	v := p.judge(a)
	if len(p.frame) > 0 {
		v.Evidence += fmt.Sprintf(" (in the frame with %s)", p.where())
	}
	return v
}

// judge decides from the part of the observation (the page's, or the frame's) recorded.
func (p *Page) judge(a pageAnswer) agent.Verdict {
	switch {
	case p.visible != nil && p.visible.Text != "":
		return found(strings.Contains(a.Text, p.visible.Text), fmt.Sprintf("text %q", p.visible.Text))
	case p.visible != nil:
		if len(a.Matches) == 0 {
			return agent.Verdict{Evidence: fmt.Sprintf("no %s is visible on %s", p.visible, a.where())}
		}
		return agent.Verdict{Done: true, Evidence: fmt.Sprintf("%s is visible (%d match)", p.visible, len(a.Matches))}
	case p.value != nil:
		switch len(a.Matches) {
		case 0:
			return agent.Verdict{Evidence: fmt.Sprintf("no field %s on %s", p.value, a.where())}
		case 1:
			got := a.Matches[0].Value
			v := agent.Verdict{Done: got == p.equals, Evidence: fmt.Sprintf("field %s holds %q", p.value, got)}
			if !v.Done {
				v.Evidence += fmt.Sprintf(", want %q", p.equals)
			}
			return v
		}
		return agent.Verdict{Evidence: fmt.Sprintf("%d fields match %s; a value condition needs exactly one", len(a.Matches), p.value)}
	case p.text != "":
		return found(strings.Contains(a.Text, p.text), fmt.Sprintf("text %q", p.text))
	}
	if a.URL == "" {
		return agent.Verdict{Evidence: "no page was loaded"}
	}
	v := agent.Verdict{Done: p.url.MatchString(a.URL), Evidence: "the URL is " + a.URL}
	if !v.Done {
		v.Evidence += fmt.Sprintf(", which does not match /%s/", p.url)
	}
	return v
}

// where is the page's URL, or says that no page was loaded.
func (a pageAnswer) where() string {
	if a.URL == "" {
		return "a page that never loaded"
	}
	return a.URL
}

func found(ok bool, what string) agent.Verdict {
	if ok {
		return agent.Verdict{Done: true, Evidence: what + " is on the page"}
	}
	return agent.Verdict{Evidence: what + " is not on the page"}
}
