package booking

import (
	"fmt"
	"slices"
	"strconv"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Phase is where the latest save stands.
type Phase string

// Save phases.
const (
	PhaseIdle      Phase = "idle"      // no save requested yet
	PhasePending   Phase = "pending"   // the server is handling a save
	PhaseCompleted Phase = "completed" // the server answered the save with success
	PhaseRefused   Phase = "refused"   // the server refused the save
	PhaseCancelled Phase = "cancelled" // the page abandoned the save before it was answered
)

// Record is one committed reservation in the lab's store.
type Record struct {
	ID    int    `json:"id"`
	Title string `json:"title"`
	Room  string `json:"room"`
}

// State is the booking app's state as the event log determines it. It is never edited
// directly: Apply computes each state from the one before.
type State struct {
	// Seq is the sequence number of the last event applied, 0 before any; AtMS is its time.
	Seq  int   `json:"seq"`
	AtMS int64 `json:"at_ms"`
	// DialogOpen is whether the reservation dialog is open; Title and Room are its fields.
	DialogOpen bool   `json:"dialog_open"`
	Title      string `json:"title"`
	Room       string `json:"room"`
	// Phase is where the latest save stands. SaveRecord is the ID of the record that save
	// committed, 0 when it committed none; Refusal is why it was refused.
	Phase      Phase  `json:"phase"`
	SaveRecord int    `json:"save_record,omitempty"`
	Refusal    string `json:"refusal,omitempty"`
	// Notice is the visible status notice and Alert the visible alert, empty when none.
	Notice string `json:"notice"`
	Alert  string `json:"alert"`
	// Records are the committed reservations, oldest first.
	Records []Record `json:"records"`
}

// Initial is the state before any event: dialog closed, no save, an empty store.
func Initial() State {
	return State{Room: DefaultRoom, Phase: PhaseIdle, Records: []Record{}}
}

// Rebuild replays events from the initial state through Apply and returns the final state, or
// the first illegal event's error.
func Rebuild(events []agent.Event) (State, error) {
	return rules.Rebuild(events)
}

// Apply returns the state after ev, or a *labkit.EventError when ev cannot follow s: a sequence
// number that is not the next one, a time before the previous event's, an unknown type,
// missing or unexpected data, or an order the app cannot produce. s is never modified.
func Apply(s State, ev agent.Event) (State, error) { return labkit.Checked(s, ev, check, after) }

// after is the state after ev, which check lets follow s.
func after(s State, ev agent.Event) State {
	next := s
	next.Seq, next.AtMS = ev.Seq, ev.AtMS
	d := ev.Data
	switch ev.Type {
	case EventDialogOpened:
		next.DialogOpen, next.Title, next.Room, next.Alert = true, "", DefaultRoom, ""
	case EventFieldChanged:
		if d["field"] == FieldTitle {
			next.Title = d["value"]
		} else {
			next.Room = d["value"]
		}
	case EventSaveRequested:
		next.Phase, next.SaveRecord, next.Refusal, next.Notice, next.Alert = PhasePending, 0, "", "", ""
	case EventCommitted:
		id, _ := strconv.Atoi(d["id"])
		next.SaveRecord = id
		next.Records = append(slices.Clip(s.Records), Record{ID: id, Title: d["title"], Room: d["room"]})
	case EventSaveCompleted:
		next.Phase = PhaseCompleted
	case EventRefused:
		next.Phase, next.Refusal = PhaseRefused, d["reason"]
	case EventCancelled:
		next.Phase = PhaseCancelled
	case EventNoticeShown:
		next.Notice = d["text"]
	case EventAlertShown:
		next.Alert = d["text"]
	case EventDialogClosed:
		next.DialogOpen, next.Alert = false, ""
	}
	return next
}

// check returns why ev cannot follow s, or "" when it can.
func check(s State, ev agent.Event) string {
	if r := labkit.CheckEvent(s.Seq, s.AtMS, ev, eventKeys); r != "" {
		return r
	}
	d := ev.Data
	switch ev.Type {
	case EventDialogOpened:
		if s.DialogOpen {
			return "the dialog is already open"
		}
	case EventFieldChanged:
		switch {
		case !s.DialogOpen:
			return "the dialog is closed"
		case d["field"] != FieldTitle && d["field"] != FieldRoom:
			return fmt.Sprintf("unknown field %q, want %q or %q", d["field"], FieldTitle, FieldRoom)
		case d["field"] == FieldRoom && !knownRoom(d["value"]):
			return fmt.Sprintf("unknown room %q", d["value"])
		}
	case EventSaveRequested:
		switch {
		case !s.DialogOpen:
			return "the dialog is closed"
		case s.Phase == PhasePending:
			return "a save is already pending"
		case d["title"] == "":
			return "the title is empty"
		case d["title"] != s.Title:
			return fmt.Sprintf("the save asks for title %q but the field holds %q", d["title"], s.Title)
		case d["room"] != s.Room:
			return fmt.Sprintf("the save asks for room %q but the field holds %q", d["room"], s.Room)
		}
	case EventCommitted:
		id, err := strconv.Atoi(d["id"])
		switch {
		case s.Phase != PhasePending:
			return fmt.Sprintf("no save is pending (the save is %s)", s.Phase)
		case s.SaveRecord != 0:
			return fmt.Sprintf("the pending save already committed record #%d", s.SaveRecord)
		case err != nil || id != len(s.Records)+1:
			return fmt.Sprintf("record id %q, want %d", d["id"], len(s.Records)+1)
		case d["title"] == "":
			return "the record's title is empty"
		case !knownRoom(d["room"]):
			return fmt.Sprintf("unknown room %q", d["room"])
		}
	case EventSaveCompleted, EventRefused, EventCancelled:
		if s.Phase != PhasePending {
			return fmt.Sprintf("no save is pending (the save is %s)", s.Phase)
		}
		if ev.Type == EventRefused && d["reason"] == "" {
			return "the refusal gives no reason"
		}
	case EventNoticeShown:
		switch {
		case s.Phase != PhaseCompleted:
			return fmt.Sprintf("the save has not completed (it is %s)", s.Phase)
		case s.Notice != "":
			return "a notice is already shown"
		case d["text"] == "":
			return "the notice has no text"
		}
	case EventAlertShown:
		switch {
		case s.Phase != PhaseRefused:
			return fmt.Sprintf("the save was not refused (it is %s)", s.Phase)
		case !s.DialogOpen:
			return "the dialog is closed"
		case s.Alert != "":
			return "an alert is already shown"
		case d["text"] == "":
			return "the alert has no text"
		}
	case EventDialogClosed:
		if !s.DialogOpen {
			return "the dialog is already closed"
		}
	}
	return ""
}
