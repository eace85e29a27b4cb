package booking

// Fault modes an instance can be started with (agent.AttemptSpec.Fault).
const (
	// FaultNone saves normally.
	FaultNone = "none"
	// FaultNoticeNoCommit answers the save with success but commits nothing.
	FaultNoticeNoCommit = "notice-no-commit"
	// FaultWrongRoom commits the record in South lab whatever room was asked for.
	FaultWrongRoom = "wrong-room"
	// FaultRefused refuses the save with HTTP 409 and a message.
	FaultRefused = "refused"
	// FaultRenamed renders the "Reserve slot" button as "Book a slot"; the rest is normal.
	FaultRenamed = "renamed"
)

// Faults lists every fault mode.
var Faults = []string{FaultNone, FaultNoticeNoCommit, FaultWrongRoom, FaultRefused, FaultRenamed}
