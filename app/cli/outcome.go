package cli

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// statusIncomplete is the exit status of a run (or suite) that was made, recorded and
// reported, and in which some attempt did not complete: apart from 1, any error, so that a
// script tells "the agent did not do it" from "the run could not be made" (as terraform's
// -detailed-exitcode does).
const statusIncomplete = 2

// statusNothingSelected is the exit status of a run whose selection held no attempt (a shard
// past the last attempt, a folder with no task file): an empty run is not a pass.
const statusNothingSelected = 3

// incomplete is the error of a run some of whose attempts did not complete; Execute exits
// with its ExitStatus when it is all that went wrong.
type incomplete struct{ msg string }

func (e *incomplete) Error() string { return e.msg }

// ExitStatus is statusIncomplete.
func (e *incomplete) ExitStatus() int { return statusIncomplete }

// notCompleted is what run returns, once it has recorded, exported and printed the run, when
// any attempt did not complete, so that its exit status says what the table does: 0 only
// when every attempt completed (the gate proved it), statusIncomplete when one did not. It
// counts the attempts by terminal state: "2 of 8 attempts did not complete (1 failed,
// 1 ambiguous)". nil when every attempt completed.
func notCompleted(attempts []agent.Attempt) error {
	count := map[agent.Terminal]int{}
	n := 0
	for _, a := range attempts {
		if a.Terminal != agent.Completed {
			count[a.Terminal]++
			n++
		}
	}
	if n == 0 {
		return nil
	}
	var states []string
	for _, t := range append(agent.Terminals, "") {
		if c := count[t]; c > 0 {
			name := string(t)
			if t == "" {
				name = "unfinished"
			}
			states = append(states, fmt.Sprintf("%d %s", c, name))
		}
	}
	return &incomplete{fmt.Sprintf("%d of %d attempts did not complete (%s)", n, len(attempts), strings.Join(states, ", "))}
}
