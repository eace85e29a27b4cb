package canvas

// Fault modes an instance can be started with (agent.AttemptSpec.Fault).
const (
	// FaultNone places the accessible-mode toggle off-screen.
	FaultNone = "none"
	// FaultClippedToggle clips the toggle to one pixel instead, the "visually hidden" pattern.
	FaultClippedToggle = "clipped-toggle"
)

// Faults lists every fault mode.
var Faults = []string{FaultNone, FaultClippedToggle}
