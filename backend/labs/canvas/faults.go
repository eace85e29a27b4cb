package canvas

import (
	"fmt"
	"slices"
	"strings"
)

// Fault modes an instance can be started with (agent.AttemptSpec.Fault).
const (
	// FaultNone places the accessible-mode toggle off-screen.
	FaultNone = "none"
	// FaultClippedToggle clips the toggle to one pixel instead, the "visually hidden" pattern.
	FaultClippedToggle = "clipped-toggle"
)

// Faults lists every fault mode.
var Faults = []string{FaultNone, FaultClippedToggle}

// checkFault returns an error naming the valid modes when fault is not one of them.
func checkFault(fault string) error {
	if slices.Contains(Faults, fault) {
		return nil
	}
	return fmt.Errorf("unknown canvas fault %q: use one of %s", fault, strings.Join(Faults, ", "))
}
