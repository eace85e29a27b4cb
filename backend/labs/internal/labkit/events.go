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
