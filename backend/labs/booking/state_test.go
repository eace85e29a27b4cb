package booking

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

func TestRebuildLegalOrders(t *testing.T) {
	saved := []Record{{ID: 1, Title: "Spectral scan", Room: "north"}}
	tests := []struct {
		name   string
		events []agent.Event
		want   State
	}{
		{"no events", nil, Initial()},
		{"saves normally", shapeSaved, State{Seq: 8, AtMS: 70, Title: "Spectral scan", Room: "north",
			Phase: PhaseCompleted, SaveRecord: 1, Notice: SavedNotice, Records: saved}},
		{"notice, nothing committed", shapeNoCommit, State{Seq: 7, AtMS: 60, Title: "Spectral scan", Room: "north",
			Phase: PhaseCompleted, Notice: SavedNotice, Records: []Record{}}},
		{"wrong room", shapeWrong, State{Seq: 8, AtMS: 70, Title: "Spectral scan", Room: "north",
			Phase: PhaseCompleted, SaveRecord: 1, Notice: SavedNotice, Records: []Record{{ID: 1, Title: "Spectral scan", Room: "south"}}}},
		{"refused", shapeRefused, State{Seq: 6, AtMS: 50, DialogOpen: true, Title: "Spectral scan", Room: "north",
			Phase: PhaseRefused, Refusal: "North lab is closed for maintenance",
			Alert: "Save refused: North lab is closed for maintenance", Records: []Record{}}},
		{"cancelled", shapeCancelled, State{Seq: 5, AtMS: 40, DialogOpen: true, Title: "Spectral scan", Room: "north",
			Phase: PhaseCancelled, Records: []Record{}}},
		{"refused, then saved on retry", concat(shapeRefused, []agent.Event{
			ev(EventSaveRequested, "title", "Spectral scan", "room", "north"),
			ev(EventCommitted, "id", "1", "title", "Spectral scan", "room", "north"),
			ev(EventSaveCompleted), ev(EventDialogClosed), ev(EventNoticeShown, "text", SavedNotice),
		}), State{Seq: 11, AtMS: 100, Title: "Spectral scan", Room: "north",
			Phase: PhaseCompleted, SaveRecord: 1, Notice: SavedNotice, Records: saved}},
		{"reopened after a save resets the fields, keeps the records", concat(shapeSaved, []agent.Event{
			ev(EventDialogOpened),
			ev(EventFieldChanged, "field", "room", "value", "south"),
			ev(EventDialogClosed),
		}), State{Seq: 11, AtMS: 100, Room: "south", Phase: PhaseCompleted, SaveRecord: 1, Notice: SavedNotice, Records: saved}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Rebuild(numbered(tt.events...))
			if err != nil {
				t.Fatalf("Rebuild: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("state\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestRebuildRejectsIllegalOrders(t *testing.T) {
	open := ev(EventDialogOpened)
	title := ev(EventFieldChanged, "field", "title", "value", "Spectral scan")
	request := ev(EventSaveRequested, "title", "Spectral scan", "room", "north")
	commit := ev(EventCommitted, "id", "1", "title", "Spectral scan", "room", "north")
	tests := []struct {
		name     string
		events   []agent.Event
		seq      int
		typ      string
		reason   string
		renumber bool
	}{
		{"committed without a pending save", []agent.Event{commit}, 1, EventCommitted, "no save is pending", true},
		{"save while the dialog is closed", []agent.Event{request}, 1, EventSaveRequested, "dialog is closed", true},
		{"save while a save is pending", []agent.Event{open, title, request, request}, 4, EventSaveRequested, "already pending", true},
		{"save asks for another title than the field", []agent.Event{open, ev(EventSaveRequested, "title", "Other", "room", "north")}, 2, EventSaveRequested, `field holds ""`, true},
		{"field changed while the dialog is closed", []agent.Event{title}, 1, EventFieldChanged, "dialog is closed", true},
		{"unknown field", []agent.Event{open, ev(EventFieldChanged, "field", "date", "value", "x")}, 2, EventFieldChanged, `unknown field "date"`, true},
		{"unknown room", []agent.Event{open, ev(EventFieldChanged, "field", "room", "value", "east")}, 2, EventFieldChanged, `unknown room "east"`, true},
		{"notice before the save completed", []agent.Event{open, title, request, ev(EventNoticeShown, "text", SavedNotice)}, 4, EventNoticeShown, "has not completed", true},
		{"notice shown twice", concat(shapeSaved, []agent.Event{ev(EventNoticeShown, "text", SavedNotice)}), 9, EventNoticeShown, "already shown", true},
		{"alert without a refusal", []agent.Event{open, ev(EventAlertShown, "text", "boom")}, 2, EventAlertShown, "not refused", true},
		{"dialog opened while open", []agent.Event{open, open}, 2, EventDialogOpened, "already open", true},
		{"dialog closed while closed", []agent.Event{ev(EventDialogClosed)}, 1, EventDialogClosed, "already closed", true},
		{"two commits for one save", []agent.Event{open, title, request, commit, ev(EventCommitted, "id", "2", "title", "Spectral scan", "room", "north")}, 5, EventCommitted, "already committed record #1", true},
		{"record id out of order", []agent.Event{open, title, request, ev(EventCommitted, "id", "7", "title", "Spectral scan", "room", "north")}, 4, EventCommitted, `record id "7", want 1`, true},
		{"completed twice", concat(shapeSaved[:6], []agent.Event{ev(EventSaveCompleted)}), 7, EventSaveCompleted, "no save is pending", true},
		{"cancelled with nothing pending", []agent.Event{open, ev(EventCancelled)}, 2, EventCancelled, "no save is pending", true},
		{"unknown type", []agent.Event{ev("teleported")}, 1, "teleported", "unknown event type", true},
		{"missing data", []agent.Event{open, ev(EventFieldChanged, "field", "title")}, 2, EventFieldChanged, `missing data "value"`, true},
		{"unexpected data", []agent.Event{ev(EventDialogOpened, "x", "1")}, 1, EventDialogOpened, `unexpected data "x"`, true},
		{"refusal without a reason", []agent.Event{open, title, request, ev(EventRefused, "reason", "")}, 4, EventRefused, "no reason", true},
		{"sequence gap", []agent.Event{{Seq: 1, Type: EventDialogOpened}, {Seq: 3, Type: EventDialogClosed}}, 3, EventDialogClosed, "want 2", false},
		{"sequence starting at 0", []agent.Event{{Seq: 0, Type: EventDialogOpened}}, 0, EventDialogOpened, "want 1", false},
		{"time going back", []agent.Event{{Seq: 1, AtMS: 50, Type: EventDialogOpened}, {Seq: 2, AtMS: 40, Type: EventDialogClosed}}, 2, EventDialogClosed, "before the previous", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := tt.events
			if tt.renumber {
				events = numbered(events...)
			}
			_, err := Rebuild(events)
			var ee *labkit.EventError
			if !errors.As(err, &ee) {
				t.Fatalf("Rebuild error = %v, want a *labkit.EventError", err)
			}
			if ee.Seq != tt.seq || ee.Type != tt.typ || !strings.Contains(ee.Reason, tt.reason) {
				t.Errorf("error %+v, want seq %d type %q reason containing %q", ee, tt.seq, tt.typ, tt.reason)
			}
			wantPrefix := fmt.Sprintf("event %d (%s): ", tt.seq, tt.typ)
			if !strings.HasPrefix(err.Error(), wantPrefix) {
				t.Errorf("message %q does not start with %q", err, wantPrefix)
			}
		})
	}
}

func TestApplyLeavesItsInputUnchanged(t *testing.T) {
	events := numbered(concat(shapeSaved, []agent.Event{
		ev(EventDialogOpened), ev(EventFieldChanged, "field", "title", "value", "Second"),
		ev(EventSaveRequested, "title", "Second", "room", "north"),
	})...)
	before, err := Rebuild(events)
	if err != nil {
		t.Fatal(err)
	}
	snapshot := append([]Record(nil), before.Records...)
	commit := agent.Event{Seq: before.Seq + 1, AtMS: before.AtMS, Type: EventCommitted,
		Data: map[string]string{"id": "2", "title": "Second", "room": "north"}}
	for range 2 { // two branches from the same state must not share a backing array
		after, err := Apply(before, commit)
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Records) != 2 {
			t.Fatalf("after commit: %d records, want 2", len(after.Records))
		}
	}
	if !reflect.DeepEqual(before.Records, snapshot) || before.Phase != PhasePending {
		t.Errorf("Apply changed its input: %+v", before)
	}
}
