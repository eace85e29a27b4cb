package labkit

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"observatory/backend/agent"
)

// EventError says which event of a log is illegal and why.
type EventError struct {
	Seq    int    // the event's sequence number as recorded
	Type   string // the event's type as recorded
	Reason string // why the event cannot follow the state before it
}

// Error names the event by sequence number and type.
func (e *EventError) Error() string {
	return fmt.Sprintf("event %d (%s): %s", e.Seq, e.Type, e.Reason)
}

// CheckOrder returns why ev cannot follow an event numbered seq at atMS, or "".
func CheckOrder(seq int, atMS int64, ev agent.Event) string {
	if ev.Seq != seq+1 {
		return fmt.Sprintf("sequence number %d is out of order, want %d", ev.Seq, seq+1)
	}
	if ev.AtMS < atMS {
		return fmt.Sprintf("time %d ms is before the previous event's %d ms", ev.AtMS, atMS)
	}
	return ""
}

// CheckEvent returns why ev cannot follow an event numbered seq at atMS (see CheckOrder), or
// why its type or data keys are not those keys lists for its type (see CheckKeys), or "".
func CheckEvent(seq int, atMS int64, ev agent.Event, keys map[string][]string) string {
	if why := CheckOrder(seq, atMS, ev); why != "" {
		return why
	}
	return CheckKeys(ev, keys)
}

// Checked is one step of a lab's transition function, made of its two halves: s and an
// *EventError when check refuses ev after s (check says why, "" when ev can follow s);
// otherwise after's state after ev, which must not modify s.
func Checked[S any](s S, ev agent.Event, check func(S, agent.Event) string, after func(S, agent.Event) S) (S, error) {
	if why := check(s, ev); why != "" {
		return s, &EventError{Seq: ev.Seq, Type: ev.Type, Reason: why}
	}
	return after(s, ev), nil
}

// CheckKeys returns why ev's type or data keys are not those keys lists for its type, or "".
func CheckKeys(ev agent.Event, keys map[string][]string) string {
	want, ok := keys[ev.Type]
	if !ok {
		known := slices.Sorted(maps.Keys(keys))
		return "unknown event type, want one of " + strings.Join(known, ", ")
	}
	for _, k := range want {
		if _, ok := ev.Data[k]; !ok {
			return fmt.Sprintf("missing data %q", k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(ev.Data)) {
		if !slices.Contains(want, k) {
			return fmt.Sprintf("unexpected data %q", k)
		}
	}
	return ""
}
