package canvas

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// The move the lab's one task asks for.
const (
	From = "b1"
	To   = "c3"
)

// Gate evaluates the completion gate on s: done only when the white knight stands on c3,
// b1 is empty, and that one move is all that was made. It reads only the state the event log
// determines, so it answers the same live and on replay.
func Gate(s State) agent.Gate {
	return agent.NewGate([]agent.Condition{
		{ID: "on-target", Label: "The white knight stands on " + To, Verdict: onTarget(s)},
		{ID: "only-move", Label: "That is the only move made", Verdict: onlyMove(s)},
	})
}

// MovedAsAsked is the ground truth: the board's store shows exactly the asked move.
func MovedAsAsked(s State) agent.Verdict {
	done := len(s.Moves) == 1 && s.Moves[0] == From+"-"+To
	return agent.Verdict{Done: done, Evidence: describeMoves(s)}
}

// Settle says whether s makes further waiting pointless: never, since a move can come at any
// time; a verify waits out its deadline.
func Settle(State, agent.Gate) (agent.Terminal, string) { return "", "" }

func onTarget(s State) agent.Verdict {
	if s.Pieces[To] == Knight && s.Pieces[From] == "" {
		return agent.Verdict{Done: true, Evidence: fmt.Sprintf("the board has the %s on %s and %s empty", Knight, To, From)}
	}
	return agent.Verdict{Evidence: fmt.Sprintf("%s holds %s and %s holds %s", From, pieceOn(s, From), To, pieceOn(s, To))}
}

func onlyMove(s State) agent.Verdict {
	return agent.Verdict{Done: len(s.Moves) == 1, Evidence: describeMoves(s)}
}

func pieceOn(s State, sq string) string {
	if p := s.Pieces[sq]; p != "" {
		return "the " + p
	}
	return "nothing"
}

// describeMoves says what was moved, and where clicks on the board landed.
func describeMoves(s State) string {
	moves := "no move was made"
	if len(s.Moves) > 0 {
		moves = "moves made: " + strings.Join(s.Moves, ", ")
	}
	if len(s.Clicks) > 0 {
		moves += fmt.Sprintf("; %d click(s) on the board landed on %s", len(s.Clicks), strings.Join(s.Clicks, ", "))
	}
	return moves
}
