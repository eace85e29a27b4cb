package booking

import (
	"fmt"
	"slices"
	"strings"
)

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

// checkFault returns an error naming the valid modes when fault is not one of them.
func checkFault(fault string) error {
	if slices.Contains(Faults, fault) {
		return nil
	}
	return fmt.Errorf("unknown booking fault %q: use one of %s", fault, strings.Join(Faults, ", "))
}
