package canvas

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Knight is the piece the task moves.
const Knight = "white knight"

// State is the app's authoritative state: where each piece stands, whether accessible mode
// is on and how it was switched on, and what was clicked and moved.
type State struct {
	// Pieces maps a square ("b1") to the piece on it.
	Pieces map[string]string `json:"pieces"`
	// Accessible is set once accessible mode is on; Via says how its toggle was pressed.
	Accessible bool   `json:"accessible"`
	Via        string `json:"via,omitempty"`
	// Clicks are the squares clicks on the canvas landed on, in order.
	Clicks []string `json:"clicks,omitempty"`
	// Moves are the moves made, "b1-c3"; Refused the moves refused, with why.
	Moves   []string `json:"moves,omitempty"`
	Refused []string `json:"refused,omitempty"`
}

// Initial is the board before any event: the knights and rooks of both sides.
func Initial() State {
	return State{Pieces: map[string]string{
		"a1": "white rook", "b1": Knight, "g1": "white knight", "h1": "white rook",
		"a8": "black rook", "b8": "black knight", "g8": "black knight", "h8": "black rook",
	}}
}

// Rebuild replays events from the initial state; the error names the first illegal event.
func Rebuild(events []agent.Event) (State, error) {
	return rules.Rebuild(events)
}

// Apply is the transition function: the state after ev, or an *labkit.EventError when ev
// cannot follow s. It does not modify s.
func Apply(s State, ev agent.Event) (State, error) { return labkit.Checked(s, ev, check, after) }

// after is the state after ev, which check lets follow s.
func after(s State, ev agent.Event) State {
	next := s
	d := ev.Data
	switch ev.Type {
	case EventBoardClicked:
		next.Clicks = append(slices.Clone(s.Clicks), d["square"])
	case EventModeSwitched:
		next.Accessible, next.Via = true, d["via"]
	case EventMoved:
		next.Pieces = maps.Clone(s.Pieces)
		delete(next.Pieces, d["from"])
		next.Pieces[d["to"]] = d["piece"]
		next.Moves = append(slices.Clone(s.Moves), d["from"]+"-"+d["to"])
	case EventMoveRefused:
		next.Refused = append(slices.Clone(s.Refused), fmt.Sprintf("%s-%s: %s", d["from"], d["to"], d["reason"]))
	}
	return next
}

// check returns why ev cannot follow s, or "".
func check(s State, ev agent.Event) string {
	if why := labkit.CheckKeys(ev, eventKeys); why != "" {
		return why
	}
	d := ev.Data
	switch ev.Type {
	case EventBoardClicked:
		if !square(d["square"]) && d["square"] != "" {
			return fmt.Sprintf("square %q is not on the board", d["square"])
		}
	case EventModeSwitched:
		if d["via"] != ViaKeyboard && d["via"] != ViaPointer {
			return fmt.Sprintf("via %q: want %s or %s", d["via"], ViaKeyboard, ViaPointer)
		}
	case EventMoved:
		if why := legal(s, d["from"], d["to"]); why != "" {
			return why
		}
		if s.Pieces[d["from"]] != d["piece"] {
			return fmt.Sprintf("%s is not on %s", d["piece"], d["from"])
		}
	}
	return ""
}

// square reports whether sq names a square, "a1" to "h8".
func square(sq string) bool {
	return len(sq) == 2 && sq[0] >= 'a' && sq[0] <= 'h' && sq[1] >= '1' && sq[1] <= '8'
}

// legal returns why moving the piece on from to to is not a knight's move onto a free
// square, or "". Only knights move in this lab.
func legal(s State, from, to string) string {
	piece, ok := s.Pieces[from]
	switch {
	case !square(from) || !square(to):
		return fmt.Sprintf("%q to %q: name two squares, a1 to h8", from, to)
	case !ok:
		return fmt.Sprintf("there is no piece on %s", from)
	case !strings.HasSuffix(piece, "knight"):
		return fmt.Sprintf("the %s on %s does not move in this lab; only knights do", piece, from)
	case s.Pieces[to] != "":
		return fmt.Sprintf("%s is taken by the %s", to, s.Pieces[to])
	}
	df, dr := abs(int(to[0])-int(from[0])), abs(int(to[1])-int(from[1]))
	if df*dr != 2 {
		return fmt.Sprintf("%s to %s is not a knight's move", from, to)
	}
	return ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
