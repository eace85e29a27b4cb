package agent

import (
	"slices"
	"strings"
)

// RoleName is one (role, accessible name) pair seen on the page.
type RoleName struct {
	Role string `json:"role"`
	Name string `json:"name"`
}

// Field is one form control as observed.
type Field struct {
	Role    string `json:"role"`
	Name    string `json:"name"`
	Value   string `json:"value"`
	Invalid bool   `json:"invalid,omitempty"`
}

// Sample is what the page showed at one moment, taken in a single browser round trip.
type Sample struct {
	// Seq numbers the observations an attempt takes for its record, from 1 and in order, so
	// that a model turn can name the very observation it was shown; 0 for a sample taken
	// elsewhere (an oracle's look at the page) or recorded before observations were numbered.
	Seq int `json:"seq,omitempty"`
	// AtMS is milliseconds since the attempt started.
	AtMS int64  `json:"at_ms"`
	URL  string `json:"url"`
	// Title is the document's title.
	Title      string     `json:"title,omitempty"`
	DialogOpen bool       `json:"dialog_open"`
	Fields     []Field    `json:"fields"`
	Notice     string     `json:"notice"` // what the page announces: a status, output, live region or alert
	Alert      string     `json:"alert"`  // text of the visible role=alert element, if any
	Rows       [][]string `json:"rows"`   // the data table's body rows, cell texts
	// FormPresent is true when a form is on the page; FormValid when it has no invalid field.
	FormPresent bool       `json:"form_present"`
	FormValid   bool       `json:"form_valid"`
	Pairs       []RoleName `json:"pairs"`
	// Text is the page's visible text, bounded; page conditions read it.
	Text string `json:"text,omitempty"`
	// Unreadable are the large visible regions the accessibility snapshot cannot describe
	// (a canvas, a block of many unlabelled elements); decorative backgrounds are left out.
	Unreadable []Region `json:"unreadable,omitempty"`
	// Principal is the signed-in account, Facts the relevant text and Version the page's
	// version, each read where the task's Authority says; empty when it declares none.
	Principal string `json:"principal,omitempty"`
	Facts     []Fact `json:"facts,omitempty"`
	Version   string `json:"version,omitempty"`
	// Frames are what the shown same-origin iframes show, each on its own, in document order
	// (at most MaxFrameViews), for conditions that judge inside a frame; what they show is
	// in Pairs, Fields and Text too.
	Frames []FrameView `json:"frames,omitempty"`
	// Notices are what the task's named notice places (Task.Notices) announce, in their order,
	// each reported under its place's ID: the text one shows, else the last text it showed and
	// hid since the previous observation (a toast that came and went), else empty.
	Notices []Fact `json:"notices,omitempty"`
	// Viewport is the page's viewport in CSS pixels as the sample was read; nil in samples
	// recorded before it was.
	Viewport *Size `json:"viewport,omitempty"`
	// Tab is the tab the sample was read from: its index among the attempt's open tabs, in the
	// order its browser context lists them (0, the first, is omitted). A step's Before says
	// which tab it acted on; an agent driving tabs (ActTabNew, ActTabSelect) moves it.
	Tab int `json:"tab,omitempty"`
	// JSDialog is the JavaScript dialog open over the page, left for its agent to answer (see
	// DialogKeeper); nil when none is. The harness classifies accepting it by its message.
	JSDialog *PendingDialog `json:"js_dialog,omitempty"`
	// Screenshot is the stored image's path relative to the run's media folder, if taken,
	// and ScreenshotSize its size in image pixels (nil when none was taken, or recorded).
	Screenshot     string `json:"screenshot,omitempty"`
	ScreenshotSize *Size  `json:"screenshot_size,omitempty"`
	// PixelRatio is the page's device pixel ratio as the sample was read, when it was not 1:
	// its screenshot is then ScreenshotSize image pixels for Viewport times PixelRatio.
	PixelRatio float64 `json:"pixel_ratio,omitempty"`
	// DOM is the stored static copy of the page's DOM (Media.DOM), taken between the same two
	// identical reads as the screenshot, as a path relative to the run's media folder; DOMSkipped
	// says why none was kept where one was asked for (the page's was past MaxDOMBytes).
	DOM        string `json:"dom,omitempty"`
	DOMSkipped string `json:"dom_skipped,omitempty"`
	// Focus is the element with the keyboard focus, which a key pressed without a target
	// goes to; nil when nothing on the page has it.
	Focus *Focus `json:"focus,omitempty"`
}

// MaxFrameViews bounds the iframes a sample shows on their own.
const MaxFrameViews = 8

// FrameView is what one same-origin iframe shows: where it is (the title and name attribute
// of each frame down to it, outermost first), its address, its text (bounded as the page's),
// its roles and names, and its form fields.
type FrameView struct {
	Path   []FrameRef `json:"path"`
	URL    string     `json:"url"`
	Text   string     `json:"text,omitempty"`
	Pairs  []RoleName `json:"pairs,omitempty"`
	Fields []Field    `json:"fields,omitempty"`
}

// Focus is the element that has the keyboard focus, and what Enter in it would submit.
type Focus struct {
	Role string `json:"role"`
	Name string `json:"name"`
	// Submits means Enter in this field submits its form (implicit submission), through the
	// form's default button, whose accessible name is Submitter ("" for a form without one).
	Submits   bool   `json:"submits,omitempty"`
	Submitter string `json:"submitter,omitempty"`
}

// Region is one area of the page, in CSS pixels of the viewport.
type Region struct {
	// Kind is RegionCanvas or RegionUnlabelled.
	Kind string `json:"kind"`
	// What names the element ("canvas#board", "div.grid with 64 unlabelled cells").
	What string `json:"what"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
	W    int    `json:"w"`
	H    int    `json:"h"`
}

// Kinds of unreadable region.
const (
	RegionCanvas     = "canvas"     // a canvas, image map or embedded drawing with no text
	RegionUnlabelled = "unlabelled" // a block of many elements with no role or name
)

// Mask replaces a secret value wherever it would be recorded.
const Mask = "••••••"

// maskSecrets replaces every secret value in v by a mask.
func maskSecrets(v string, secrets []string) string {
	for _, sec := range secrets {
		if sec != "" && strings.Contains(v, sec) {
			v = strings.ReplaceAll(v, sec, Mask)
		}
	}
	return v
}

// masked is s with every secret value masked where a step states it in words: its action's
// value (a URL placed against a base URL from the environment), reason and error. Its
// samples and traffic are masked as they are taken.
func (s Step) masked(secrets []string) Step {
	s.Action.Value = maskSecrets(s.Action.Value, secrets)
	s.Reason = maskSecrets(s.Reason, secrets)
	s.Error = maskSecrets(s.Error, secrets)
	s.Decision.Reason = maskSecrets(s.Decision.Reason, secrets)
	return s
}

// Redact returns s with every secret value replaced by a mask in its URL, fields, notice,
// alert, rows and pairs; s itself is not changed.
func (s Sample) Redact(secrets []string) Sample {
	if len(secrets) == 0 {
		return s
	}
	hide := func(v string) string { return maskSecrets(v, secrets) }
	s.URL = hide(s.URL)
	s.Notice, s.Alert, s.Text = hide(s.Notice), hide(s.Alert), hide(s.Text)
	rows := make([][]string, len(s.Rows))
	for i, row := range s.Rows {
		rows[i] = make([]string, len(row))
		for j, c := range row {
			rows[i][j] = hide(c)
		}
	}
	s.Rows = rows
	s.Facts = slices.Clone(s.Facts)
	for i := range s.Facts {
		s.Facts[i].Value = hide(s.Facts[i].Value)
	}
	s.Notices = slices.Clone(s.Notices)
	for i := range s.Notices {
		s.Notices[i].Value = hide(s.Notices[i].Value)
	}
	s.Pairs = hidePairs(s.Pairs, hide)
	s.Fields = hideFields(s.Fields, hide)
	s.Frames = slices.Clone(s.Frames)
	for i := range s.Frames {
		f := &s.Frames[i]
		f.URL, f.Text = hide(f.URL), hide(f.Text)
		f.Pairs, f.Fields = hidePairs(f.Pairs, hide), hideFields(f.Fields, hide)
	}
	if s.Focus != nil {
		f := *s.Focus
		f.Name, f.Submitter = hide(f.Name), hide(f.Submitter)
		s.Focus = &f
	}
	return s
}

// hidePairs is pairs with hide applied to every name.
func hidePairs(pairs []RoleName, hide func(string) string) []RoleName {
	pairs = slices.Clone(pairs)
	for i := range pairs {
		pairs[i].Name = hide(pairs[i].Name)
	}
	return pairs
}

// hideFields is fields with hide applied to every value.
func hideFields(fields []Field, hide func(string) string) []Field {
	fields = slices.Clone(fields)
	for i := range fields {
		fields[i].Value = hide(fields[i].Value)
	}
	return fields
}
