package cli

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// notCompleted is what run returns, once it has recorded, exported and printed the run, when
// any attempt did not complete, so that its exit status says what the table does: 0 only
// when every attempt completed (the gate proved it), 1 when one did not, as for any error.
// It counts the attempts by terminal state: "2 of 8 attempts did not complete (1 failed,
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
	return fmt.Errorf("%d of %d attempts did not complete (%s)", n, len(attempts), strings.Join(states, ", "))
}
