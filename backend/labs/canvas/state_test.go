package canvas

import (
	"errors"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

func ev(seq int, typ string, data map[string]string) agent.Event {
	return agent.Event{Seq: seq, Type: typ, Data: data}
}

// TestApplyMovesOnlyKnightsToFreeSquares replays the logs the attempts produce and refuses
// illegal ones by their event.
func TestApplyMovesOnlyKnightsToFreeSquares(t *testing.T) {
	s, err := Rebuild([]agent.Event{
		ev(1, EventModeSwitched, map[string]string{"via": ViaKeyboard}),
		ev(2, EventMoved, map[string]string{"piece": Knight, "from": From, "to": To}),
	})
	if err != nil || !Gate(s).Done || !MovedAsAsked(s).Done || s.Via != ViaKeyboard {
		t.Fatalf("text route: %+v, %v; want the gate and the truth done, switched by keyboard", s, err)
	}
	blind, err := Rebuild([]agent.Event{ev(1, EventBoardClicked, map[string]string{"square": "e4"})})
	if err != nil || Gate(blind).Done || MovedAsAsked(blind).Done {
		t.Fatalf("blind click: %+v, %v; want nothing moved", blind, err)
	}
	for _, bad := range []agent.Event{
		ev(1, EventMoved, map[string]string{"piece": Knight, "from": From, "to": "b3"}),       // not a knight's move
		ev(1, EventMoved, map[string]string{"piece": "white rook", "from": "a1", "to": "b3"}), // a rook
		ev(1, EventMoved, map[string]string{"piece": Knight, "from": "c3", "to": "b1"}),       // nothing there
		ev(1, EventModeSwitched, map[string]string{"via": "telepathy"}),                       // unknown
		ev(1, EventBoardClicked, map[string]string{"square": "z9"}),                           // off the board
		ev(1, EventBoardClicked, map[string]string{"square": "e4", "extra": "x"}),             // unknown key
	} {
		var ee *labkit.EventError
		if _, err := Apply(Initial(), bad); !errors.As(err, &ee) {
			t.Errorf("Apply(%+v) = %v, want an EventError", bad, err)
		}
	}
}
