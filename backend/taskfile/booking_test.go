package taskfile_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/labs/booking"
	"observatory/backend/taskfile"
)

// bookingTask is the booking lab's task file.
const bookingTask = "../labs/booking/task.yaml"

// stateLab is the booking lab whose app is a stand-in serving one fixed state at /api/state,
// so the task file's gate can be read on states the real app would take a browser to reach.
type stateLab struct {
	taskfile.Lab
	state booking.State
}

func (l stateLab) Launch(string, map[string]int) (taskfile.LabApp, error) {
	return newStateApp(l.state), nil
}

type stateApp struct {
	srv   *httptest.Server
	state booking.State
}

func newStateApp(s booking.State) *stateApp {
	a := &stateApp{state: s}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/state" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(a.state)
	}))
	return a
}

func (a *stateApp) URL() string                   { return a.srv.URL + "/" }
func (a *stateApp) Quiesce(context.Context) error { return nil }
func (a *stateApp) Events() []agent.Event         { return nil }
func (a *stateApp) Close() error                  { a.srv.Close(); return nil }
func (a *stateApp) Settler() func(agent.Gate) (agent.Terminal, string) {
	s := a.state
	return func(g agent.Gate) (agent.Terminal, string) { return booking.Settle(s, g) }
}

func load(t *testing.T, s booking.State) taskfile.Suite {
	t.Helper()
	suite, err := taskfile.Load(bookingTask, taskfile.Options{Labs: func(string) (taskfile.Lab, error) {
		lab, err := labs.ForTaskFiles("booking")
		return stateLab{Lab: lab, state: s}, err
	}})
	if err != nil {
		t.Fatal(err)
	}
	return suite
}

// state rebuilds the state an event log leads to.
func state(t *testing.T, events ...agent.Event) booking.State {
	t.Helper()
	for i := range events {
		events[i].Seq = i + 1
	}
	s, err := booking.Rebuild(events)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func ev(typ string, kv ...string) agent.Event {
	d := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		d[kv[i]] = kv[i+1]
	}
	return agent.Event{Type: typ, Data: d}
}

// TestTaskFileGateEqualsTheLabsGate reads the task file's gate (its HTTP conditions on the
// app's JSON) on synthetic states, live and judged from the recorded answers, and compares
// every condition, the gate and the settling with the lab's own gate on the same state.
func TestTaskFileGateEqualsTheLabsGate(t *testing.T) {
	open := []agent.Event{ev(booking.EventDialogOpened), ev(booking.EventFieldChanged, "field", "title", "value", "Spectral scan")}
	saved := append(append([]agent.Event{}, open...),
		ev(booking.EventSaveRequested, "title", "Spectral scan", "room", "north"),
		ev(booking.EventCommitted, "id", "1", "title", "Spectral scan", "room", "north"),
		ev(booking.EventSaveCompleted),
		ev(booking.EventNoticeShown, "text", booking.SavedNotice),
		ev(booking.EventDialogClosed))
	rec := func(id int, title, room string) booking.Record {
		return booking.Record{ID: id, Title: title, Room: room}
	}
	tests := []struct {
		name  string
		state booking.State
	}{
		{"initial", booking.Initial()},
		{"dialog open, title typed", state(t, open...)},
		{"saved as asked", state(t, saved...)},
		{"save pending", state(t, append(append([]agent.Event{}, open...), ev(booking.EventSaveRequested, "title", "Spectral scan", "room", "north"))...)},
		{"refused", state(t, append(append([]agent.Event{}, open...),
			ev(booking.EventSaveRequested, "title", "Spectral scan", "room", "north"), ev(booking.EventRefused, "reason", "closed"))...)},
		{"notice, nothing committed", booking.State{Phase: booking.PhaseCompleted, Notice: booking.SavedNotice, Records: []booking.Record{}}},
		{"wrong room", booking.State{Phase: booking.PhaseCompleted, Notice: booking.SavedNotice, SaveRecord: 1, Records: []booking.Record{rec(1, "Spectral scan", "south")}}},
		{"wrong title", booking.State{Phase: booking.PhaseCompleted, Notice: booking.SavedNotice, SaveRecord: 1, Records: []booking.Record{rec(1, "Spectral", "north")}}},
		{"match among others", booking.State{Phase: booking.PhaseCompleted, Notice: booking.SavedNotice, SaveRecord: 3,
			Records: []booking.Record{rec(1, "Other", "south"), rec(2, "Spectral scan", "north"), rec(3, "Other", "north")}}},
		{"latest half right", booking.State{Phase: booking.PhaseCompleted, Records: []booking.Record{rec(1, "Spectral scan", "south"), rec(2, "Other", "north")}}},
		{"another notice, dialog open", booking.State{DialogOpen: true, Phase: booking.PhaseCancelled, Notice: "Saving…", Records: []booking.Record{rec(1, "Spectral scan", "north")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			suite := load(t, tt.state)
			env, err := suite.Start(context.Background(), suite.Attempts()[0])
			if err != nil {
				t.Fatal(err)
			}
			defer env.Close()
			want := booking.Gate(tt.state, booking.Requested)
			wantSettled, _ := booking.Settle(tt.state, want)

			live := env.Check(context.Background(), nil)
			judged, err := suite.Judge(agent.Evidence{Answers: env.Answers(context.Background(), nil)})
			if err != nil {
				t.Fatal(err)
			}
			for how, g := range map[string]agent.Gate{"live": live.Gate, "judged": judged.Gate} {
				if done(g) != done(want) {
					t.Errorf("%s: the task file's gate %v, the lab's %v (%+v)", how, done(g), done(want), g.Conditions)
				}
				for i, c := range g.Conditions {
					if c.Unconfirmed != "" || c.Label != want.Conditions[i].Label {
						t.Errorf("%s: condition %s: %+v, want %q confirmed", how, c.ID, c, want.Conditions[i].Label)
					}
				}
			}
			if live.Settled != wantSettled {
				t.Errorf("settled %q, the lab settles %q", live.Settled, wantSettled)
			}
		})
	}
}

// done is each condition's id and whether it holds, then the gate's: "record=true …".
func done(g agent.Gate) string {
	var out []string
	for _, c := range g.Conditions {
		out = append(out, fmt.Sprintf("%s=%v", c.ID, c.Done))
	}
	return strings.Join(append(out, fmt.Sprintf("gate=%v", g.Done)), " ")
}

// TestTaskFileMatchesTheLab checks the rest of the task file against the lab's built-in
// task: intent, plan, attempts with their faults, params and configs, and signal ids.
func TestTaskFileMatchesTheLab(t *testing.T) {
	lab := booking.New()
	suite, err := taskfile.Load(bookingTask, taskfile.Options{Labs: labs.ForTaskFiles})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := suite.Task(), lab.Task(); got.Name != want.Name || got.Intent != want.Intent || got.StartURL != want.StartURL {
		t.Errorf("task %+v, the lab's %+v", got, want)
	}
	if !reflect.DeepEqual(suite.Plan(), lab.Plan()) {
		t.Errorf("plan\n%+v\nthe lab's\n%+v", suite.Plan(), lab.Plan())
	}
	if !reflect.DeepEqual(suite.Attempts(), lab.Attempts()) {
		t.Errorf("attempts\n%+v\nthe lab's\n%+v", suite.Attempts(), lab.Attempts())
	}
	steps := []agent.Step{{Action: lab.Plan()[3], After: agent.Sample{Notice: booking.SavedNotice}}}
	got, err := suite.Judge(agent.Evidence{Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := lab.Judge(agent.Evidence{Steps: steps})
	if !reflect.DeepEqual(got.Signals, want.Signals) || got.Truth != want.Truth {
		t.Errorf("signals and truth %+v %+v, the lab's %+v %+v", got.Signals, got.Truth, want.Signals, want.Truth)
	}
	if _, ok := suite.(agent.Replayer); !ok {
		t.Error("a lab task file is no Replayer")
	}
}
