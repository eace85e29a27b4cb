package booking

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// observed builds the executor's steps for a run that got through the whole plan; the last
// observed page shows notice and alert.
func observed(notice, alert string) []agent.Step {
	plan := New().Plan()
	title := agent.Field{Role: "textbox", Name: "Reservation title"}
	filled := title
	filled.Value = "Spectral scan"
	afterFill := agent.Sample{DialogOpen: true, FormPresent: true, FormValid: true, Fields: []agent.Field{filled}}
	steps := []agent.Step{
		{Index: 0, Action: plan[0], After: agent.Sample{DialogOpen: true, FormPresent: true, Fields: []agent.Field{title}}},
		{Index: 1, Action: plan[1], After: afterFill},
		{Index: 2, Action: plan[2], After: afterFill},
		{Index: 3, Action: plan[3], After: afterFill},
		{Index: 4, Action: plan[4], After: agent.Sample{DialogOpen: notice == "", FormPresent: true, FormValid: true, Notice: notice, Alert: alert}},
	}
	return steps
}

func TestJudgeAttemptShapes(t *testing.T) {
	refusal := "Save refused: North lab is closed for maintenance"
	stuck := []agent.Step{{Index: 0, Action: New().Plan()[0], Error: agent.ErrNoTarget.Error()}}
	tests := []struct {
		attempt                         string
		events                          []agent.Event
		steps                           []agent.Step
		saved, notice, parallax, gateOK bool
		failing                         []string // gate conditions that do not hold
	}{
		{"saves-normally", shapeSaved, observed(SavedNotice, ""), true, true, true, true, nil},
		{"notice-nothing-saved", shapeNoCommit, observed(SavedNotice, ""), false, true, true, false, []string{"record", "title", "room"}},
		{"wrong-room", shapeWrong, observed(SavedNotice, ""), false, true, true, false, []string{"room"}},
		{"save-refused", shapeRefused, observed("", refusal), false, false, true, false, []string{"record", "title", "room", "save", "dialog", "notice"}},
		{"fixed-wait-slow-save", shapeCancelled, observed("", ""), false, false, true, false, []string{"record", "title", "room", "save", "dialog", "notice"}},
		{"renamed-button-exact", nil, stuck, false, false, false, false, []string{"record", "title", "room", "save", "notice"}},
		{"slow-save-condition-wait", shapeSaved, observed(SavedNotice, ""), true, true, true, true, nil},
		{"renamed-button-alias", shapeSaved, observed(SavedNotice, ""), true, true, true, true, nil},
	}
	lab := New()
	for _, tt := range tests {
		t.Run(tt.attempt, func(t *testing.T) {
			v, err := lab.Judge(agent.Evidence{Events: numbered(tt.events...), Steps: tt.steps})
			if err != nil {
				t.Fatalf("Judge: %v", err)
			}
			notice, _ := v.Signal(SignalNotice)
			parallax, _ := v.Signal(SignalParallax)
			got := []bool{v.Truth.Done, notice.Done, parallax.Done, v.Gate.Done}
			want := []bool{tt.saved, tt.notice, tt.parallax, tt.gateOK}
			for i, name := range []string{"saved as asked", "notice", "parallax", "gate"} {
				if got[i] != want[i] {
					t.Errorf("%s = %v, want %v (verdicts %+v)", name, got[i], want[i], v)
				}
			}
			var failing []string
			for _, c := range v.Gate.Conditions {
				if !c.Done {
					failing = append(failing, c.ID)
				}
				if c.Evidence == "" {
					t.Errorf("condition %s has no evidence", c.ID)
				}
			}
			if strings.Join(failing, ",") != strings.Join(tt.failing, ",") {
				t.Errorf("failing conditions %v, want %v", failing, tt.failing)
			}
		})
	}
}

func TestGateConditionsAndEvidence(t *testing.T) {
	s, err := Rebuild(numbered(shapeWrong...))
	if err != nil {
		t.Fatal(err)
	}
	g := Gate(s, Requested)
	want := []struct{ id, label, evidence string }{
		{"record", "Committed record exists", `record #1 "Spectral scan" in "south" is committed`},
		{"title", "Title matches the requested task", `record #1 is titled "Spectral scan"`},
		{"room", "Room matches the requested task", `record #1 is in "south", want "north"`},
		{"save", "Save reached its completed state", "the save is completed"},
		{"dialog", "Dialog is closed", "the dialog is closed"},
		{"notice", "Success notice is present", `notice "Reservation saved" is shown`},
	}
	if len(g.Conditions) != len(want) {
		t.Fatalf("%d conditions, want %d", len(g.Conditions), len(want))
	}
	for i, w := range want {
		c := g.Conditions[i]
		if c.ID != w.id || c.Label != w.label || c.Evidence != w.evidence {
			t.Errorf("condition %d = %q %q %q, want %q %q %q", i, c.ID, c.Label, c.Evidence, w.id, w.label, w.evidence)
		}
	}
	if sv := SavedAsAsked(s, Requested); sv.Done || !strings.Contains(sv.Evidence, `#1 "Spectral scan" in "south"`) {
		t.Errorf("saved as asked = %+v, want not done naming the south record", sv)
	}
}

func TestSettle(t *testing.T) {
	tests := []struct {
		name   string
		events []agent.Event
		want   agent.Terminal
	}{
		{"saved", shapeSaved, ""},
		{"wrong room, once the notice is shown", shapeWrong, agent.Failed},
		{"wrong room, notice not yet shown", shapeWrong[:len(shapeWrong)-1], ""},
		{"pending", filled, ""},
		{"notice without a record", shapeNoCommit, agent.Failed},
		{"completed, notice not yet shown", shapeNoCommit[:5], ""},
		{"refused", shapeRefused, agent.Rejected},
		{"refused, alert not yet shown", shapeRefused[:5], agent.Rejected},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Rebuild(numbered(tt.events...))
			if err != nil {
				t.Fatal(err)
			}
			got, why := Settle(s, Gate(s, Requested))
			if got != tt.want || (got != "") != (why != "") {
				t.Errorf("Settle = %q %q, want %q with a reason exactly when settled", got, why, tt.want)
			}
		})
	}
}

func TestJudgeRefusesAnIllegalLog(t *testing.T) {
	events := numbered(shapeSaved...)
	events[4], events[5] = events[5], events[4] // completed before committed
	events[4].Seq, events[5].Seq = 5, 6
	_, err := New().Judge(agent.Evidence{Events: events})
	if err == nil || !strings.Contains(err.Error(), "event 6 (committed)") {
		t.Fatalf("Judge error = %v, want one naming event 6 (committed)", err)
	}
	if err := New().Replay(events); err == nil {
		t.Error("Replay accepted an illegal log")
	}
}

func TestPlanAndAttempts(t *testing.T) {
	lab := New()
	var ids []string
	for _, a := range lab.Plan() {
		ids = append(ids, a.ID+"="+string(a.Kind)+" "+a.Target.String()+" "+a.Value)
	}
	wantPlan := "open-dialog=click button[Reserve slot] |fill-title=fill textbox[Reservation title] Spectral scan|" +
		"choose-room=select combobox[Room] north|submit=submit button[Save reservation] |verify=verify  "
	if got := strings.Join(ids, "|"); got != wantPlan {
		t.Errorf("plan\n got %s\nwant %s", got, wantPlan)
	}
	if alias := lab.Plan()[0].Target.Alias; alias != RenamedLabel {
		t.Errorf("open-dialog alias %q, want %q", alias, RenamedLabel)
	}
	want := []string{
		"saves-normally none condition exact 50",
		"notice-nothing-saved notice-no-commit condition exact 50",
		"wrong-room wrong-room condition exact 50",
		"save-refused refused condition exact 50",
		"fixed-wait-slow-save none fixed/200 exact 500",
		"renamed-button-exact renamed condition exact 50",
		"slow-save-condition-wait none condition exact 500",
		"renamed-button-alias renamed condition alias 50",
	}
	attempts := lab.Attempts()
	if len(attempts) != len(want) {
		t.Fatalf("%d attempts, want %d", len(attempts), len(want))
	}
	for i, a := range attempts {
		if err := a.Config.Validate(); err != nil {
			t.Errorf("%s: %v", a.Slug, err)
		}
		wait := string(a.Config.Wait)
		if a.Config.Wait == agent.WaitFixed {
			wait += "/" + strconv.Itoa(a.Config.FixedWaitMS)
		}
		got := fmt.Sprintf("%s %s %s %s %d", a.Slug, a.Fault, wait, a.Config.Selectors, a.Params[ParamLatency])
		if got != want[i] || !slices.Contains(Faults, a.Fault) || a.Title == "" {
			t.Errorf("attempt %d = %s (title %q), want %s", i, got, a.Title, want[i])
		}
	}
}

func TestFramesFollowTheTransitionFunction(t *testing.T) {
	events := numbered(shapeWrong...)
	frames, err := New().Frames(events)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != len(events)+1 || frames[0].Event != nil {
		t.Fatalf("%d frames, first event %v; want the initial state then one per event", len(frames), frames[0].Event)
	}
	last := frames[len(frames)-1]
	want, _ := Rebuild(events)
	if !reflect.DeepEqual(last.State, want) || last.Gate.Done || !reflect.DeepEqual(*last.Event, events[len(events)-1]) {
		t.Errorf("last frame %+v; want the rebuilt state with the gate not done", last)
	}
	for i, f := range frames[1:] {
		if f.Index != i+1 || f.Event.Seq != i+1 {
			t.Errorf("frame %d has index %d and event %d", i+1, f.Index, f.Event.Seq)
		}
	}
	bad := numbered(shapeSaved...)
	bad[0].Type = "unknown"
	if _, err := New().Frames(bad); err == nil || !strings.Contains(err.Error(), "event 1") {
		t.Errorf("an illegal first event gave %v, want an error naming event 1", err)
	}
}
