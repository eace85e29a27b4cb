package booking

import "observatory/backend/agent"

// ev builds an event of type typ with data given as key, value pairs; numbered sets Seq/AtMS.
func ev(typ string, kv ...string) agent.Event {
	e := agent.Event{Type: typ}
	if len(kv) > 0 {
		e.Data = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			e.Data[kv[i]] = kv[i+1]
		}
	}
	return e
}

// numbered gives events the sequence numbers 1..n, 10 ms apart, as the server would.
func numbered(evs ...agent.Event) []agent.Event {
	out := make([]agent.Event, len(evs))
	for i, e := range evs {
		e.Seq, e.AtMS = i+1, int64(10*i)
		out[i] = e
	}
	return out
}

// concat joins event lists before numbering.
func concat(parts ...[]agent.Event) []agent.Event {
	var out []agent.Event
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Event sequences of the attempts' shapes, unnumbered.
var (
	filled = []agent.Event{
		ev(EventDialogOpened),
		ev(EventFieldChanged, "field", "title", "value", "Spectral scan"),
		ev(EventFieldChanged, "field", "room", "value", "north"),
		ev(EventSaveRequested, "title", "Spectral scan", "room", "north"),
	}
	savedTail = []agent.Event{
		ev(EventSaveCompleted),
		ev(EventDialogClosed),
		ev(EventNoticeShown, "text", SavedNotice),
	}
	shapeSaved    = concat(filled, []agent.Event{ev(EventCommitted, "id", "1", "title", "Spectral scan", "room", "north")}, savedTail)
	shapeNoCommit = concat(filled, savedTail)
	shapeWrong    = concat(filled, []agent.Event{ev(EventCommitted, "id", "1", "title", "Spectral scan", "room", "south")}, savedTail)
	shapeRefused  = concat(filled, []agent.Event{
		ev(EventRefused, "reason", "North lab is closed for maintenance"),
		ev(EventAlertShown, "text", "Save refused: North lab is closed for maintenance"),
	})
	shapeCancelled = concat(filled, []agent.Event{ev(EventCancelled)})
)
