package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

func TestSimilarity(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want float64
	}{
		{"Reserve slot", "Reserve slot", 1},
		{"Reserve slot", "  reserve   SLOT ", 1}, // case and white space set aside
		{"Reserve slot", "", 0},
		{"", "", 1},
		{"Save", "Sabe", 0.75},                   // one substitution in four
		{"Save booking", "Booking save", 1},      // the same words, reordered
		{"Reserve slot", "Reserve a slot", 0.86}, // edit: 2 insertions over 14
		{"Reserve slot", "Book a slot", 0.42},    // edit: 7 of 12; words: 2·1/5 = 0.4
		{"Title", "Reservation title", 0.67},     // words: 2·1/3
	} {
		if got := agent.Similarity(tt.a, tt.b); got != tt.want {
			t.Errorf("Similarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if agent.Similarity(tt.a, tt.b) != agent.Similarity(tt.b, tt.a) {
			t.Errorf("Similarity(%q, %q) is not symmetric", tt.a, tt.b)
		}
	}
}

func TestNearestRanksBestFirst(t *testing.T) {
	el := func(role, name string) agent.Candidate { return agent.Candidate{Role: role, Name: name} }
	page := []agent.Candidate{
		el("heading", "Lab reservations"), el("link", "Reserve slot"), el("button", "Cancel"),
		el("button", "Book a slot"), el("button", "Reserve a slot"), el("textbox", "Title"),
		el("button", "Help"), el("button", "Close"), el("button", "Next"), el("button", "Book a slot"),
	}
	got := agent.Nearest(agent.Target{Role: "button", Name: "Reserve slot"}, page)
	var names []string
	for _, c := range got {
		names = append(names, c.Role+" "+c.Name)
	}
	// Best name first, whatever its role: the link named exactly so leads; page order on a
	// tie (Cancel and Help both 0.17); at most five: Help and Close (0.08) are cut. The
	// heading and the textbox, of other roles and weak names, are never candidates.
	want := "link Reserve slot|button Reserve a slot|button Book a slot|button Book a slot|button Cancel"
	if strings.Join(names, "|") != want {
		t.Errorf("Nearest = %v, want %s", names, want)
	}
	tied := agent.Nearest(agent.Target{Role: "button", Name: "Reserve slot"}, []agent.Candidate{el("link", "Reserve slots"), el("button", "Reserve slots")})
	if len(tied) != 2 || tied[0].Role != "button" {
		t.Errorf("on equal names the target's role comes first: %v", tied)
	}
	for _, c := range got {
		if c.Similarity != agent.Similarity("Reserve slot", c.Name) {
			t.Errorf("%s: similarity %v, want %v", c, c.Similarity, agent.Similarity("Reserve slot", c.Name))
		}
	}
	if got := agent.Nearest(agent.Target{Label: "Titel"}, page); len(got) != 1 || got[0].Name != "Title" {
		t.Errorf("a label target's candidates = %+v, want the textbox named Title (no role to prefer, a strong name)", got)
	}
	table := []agent.Candidate{el("columnheader", "Save"), el("cell", "Save"), el("button", "Save changes"), el("button", "Cancel")}
	if got := agent.Nearest(agent.Target{Role: "button", Name: "Save"}, table); len(got) != 4 || got[0].Name != "Save changes" || got[1].Role != "columnheader" {
		t.Errorf("a button target's candidates = %+v, want the button with a strong name before the header and cell named exactly so", got)
	}
	if got := agent.Nearest(agent.Target{Text: "Save"}, table); got[0].Role != "columnheader" {
		t.Errorf("a text target's candidates = %+v, want the closest name first, whatever is a control", got)
	}
	if got := agent.Nearest(agent.Target{CSS: "#reserve"}, page); got != nil {
		t.Errorf("a CSS target has no name to compare, got candidates %+v", got)
	}
}

func TestMissErrorNamesTheCandidates(t *testing.T) {
	err := error(&agent.MissError{Candidates: []agent.Candidate{{Role: "button", Name: `Book "a" slot`, Similarity: 0.42}}})
	if !errors.Is(err, agent.ErrNoTarget) {
		t.Error("a MissError is not ErrNoTarget")
	}
	if want := `no element matches the target; nearest: button "Book \"a\" slot" (similarity 0.42)`; err.Error() != want {
		t.Errorf("Error() = %s, want %s", err, want)
	}
	if (&agent.MissError{}).Error() != agent.ErrNoTarget.Error() {
		t.Error("a MissError without candidates does not read as ErrNoTarget")
	}
}

// measuringPage is a fakePage that measures its targets and lists candidates on a miss.
type measuringPage struct {
	fakePage
	measured []agent.Target
}

func (p *measuringPage) Measure(_ context.Context, t agent.Target) (agent.Box, error) {
	p.measured = append(p.measured, t)
	return agent.Box{X: float64(len(p.measured)), Y: 20, Width: 100, Height: 30, ViewportWidth: 1000, ViewportHeight: 700}, nil
}

func (p *measuringPage) Resolve(ctx context.Context, t agent.Target) error {
	err := p.fakePage.Resolve(ctx, t)
	if errors.Is(err, agent.ErrNoTarget) {
		return &agent.MissError{Candidates: agent.Nearest(t, []agent.Candidate{{Role: "button", Name: "Book a slot"}})}
	}
	return err
}

// TestTheExecutorRecordsBoxesAndCandidates checks that each acted-on target is measured
// right before it acts, as resolved (the alias, when used), and that a miss records its
// candidates on the step.
func TestTheExecutorRecordsBoxesAndCandidates(t *testing.T) {
	page := &measuringPage{fakePage: fakePage{controls: map[string]int{"button[Book a slot]": 1, "textbox[Title]": 1, "button[Save]": 1}}}
	cfg := agent.DefaultConfig()
	cfg.Selectors = agent.SelectAlias
	x := &agent.Executor{Policy: harness.Policy{}}
	out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: planner.Scripted(plan()), Config: cfg}, agent.Hooks{})
	if out.Terminal != agent.Completed || len(out.Steps) != 4 {
		t.Fatalf("ended %s after %d steps: %s", out.Terminal, len(out.Steps), out.Reason)
	}
	if len(page.measured) != 3 || page.measured[0].Name != "Book a slot" {
		t.Errorf("measured %v, want the three acted-on targets, the first by its alias", page.measured)
	}
	for i, s := range out.Steps[:3] {
		if s.TargetBox == nil || s.TargetBox.X != float64(i+1) {
			t.Errorf("step %d's box = %+v, want the measurement taken before it acted", i+1, s.TargetBox)
		}
	}
	if out.Steps[3].TargetBox != nil {
		t.Errorf("verify, which touches nothing, has a box %+v", out.Steps[3].TargetBox)
	}

	page = &measuringPage{fakePage: fakePage{controls: map[string]int{"button[Book a slot]": 1}}}
	out = x.Run(context.Background(), page, agent.Job{Env: &fakeLab{}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()}, agent.Hooks{})
	s := out.Steps[0]
	if out.Terminal != agent.Failed || len(s.Candidates) != 1 || s.Candidates[0].Name != "Book a slot" || s.TargetBox != nil {
		t.Fatalf("a miss ended %s with candidates %+v and box %+v", out.Terminal, s.Candidates, s.TargetBox)
	}
	if want := `button[Reserve slot]: no element matches the target; nearest: button "Book a slot" (similarity 0.42)`; s.Error != want {
		t.Errorf("the miss's error = %s, want %s", s.Error, want)
	}
}
