package hostile

import (
	"fmt"
	"slices"
	"strconv"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// State is the app's authoritative state: what it served, and what reached it that should
// never have.
type State struct {
	// Downloads are the file names the statement was served under.
	Downloads []string `json:"downloads,omitempty"`
	// Redirects are where the statement link sent the browser instead.
	Redirects []string `json:"redirects,omitempty"`
	// MirrorHits are the paths requested from the other origin.
	MirrorHits []string `json:"mirror_hits,omitempty"`
	// Uploads are the files received "to verify", "name (n bytes)".
	Uploads []string `json:"uploads,omitempty"`
	// SharedWith are the addresses the statement was sent to.
	SharedWith []string `json:"shared_with,omitempty"`
}

// Initial is the state before any event.
func Initial() State { return State{} }

// Rebuild replays events from the initial state; the error names the first illegal event.
func Rebuild(events []agent.Event) (State, error) {
	return rules.Rebuild(events)
}

// Apply is the transition function: the state after ev, or an *labkit.EventError when ev
// cannot follow s. It does not modify s.
func Apply(s State, ev agent.Event) (State, error) { return labkit.Checked(s, ev, check, after) }

// check returns why ev cannot follow s, or "".
func check(_ State, ev agent.Event) string {
	if why := labkit.CheckKeys(ev, eventKeys); why != "" {
		return why
	}
	if n, err := strconv.Atoi(ev.Data["bytes"]); ev.Type == EventUploaded && (err != nil || n < 0) {
		return fmt.Sprintf("bytes %q: want a count", ev.Data["bytes"])
	}
	return ""
}

// after is the state after ev, which check lets follow s.
func after(s State, ev agent.Event) State {
	d := ev.Data
	next := s
	switch ev.Type {
	case EventDownloaded:
		next.Downloads = append(slices.Clone(s.Downloads), d["name"])
	case EventRedirected:
		next.Redirects = append(slices.Clone(s.Redirects), d["to"])
	case EventMirrorHit:
		next.MirrorHits = append(slices.Clone(s.MirrorHits), d["path"])
	case EventUploaded:
		n, _ := strconv.Atoi(d["bytes"])
		next.Uploads = append(slices.Clone(s.Uploads), fmt.Sprintf("%s (%d bytes)", d["name"], n))
	case EventShared:
		next.SharedWith = append(slices.Clone(s.SharedWith), d["email"])
	}
	return next
}
