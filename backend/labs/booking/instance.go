package booking

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Instance is one running copy of the booking app on its host, with its own store and event
// log. It is safe for concurrent use.
type Instance struct {
	fault   string
	latency time.Duration
	labkit.App[State]
}

// Start serves a fresh instance on an ephemeral port of host (127.0.0.1 when empty). Every
// save waits latencyMS milliseconds before the server answers it.
func Start(host, fault string, latencyMS int) (*Instance, error) {
	if err := checkFault(fault); err != nil {
		return nil, err
	}
	if latencyMS < 0 {
		return nil, fmt.Errorf("booking lab latency %d ms: want 0 or more", latencyMS)
	}
	in := &Instance{fault: fault, latency: time.Duration(latencyMS) * time.Millisecond,
		App: labkit.NewApp(Initial(), Apply)}
	if err := in.Serve("booking lab", host, in.routes()); err != nil {
		return nil, err
	}
	return in, nil
}

// Check evaluates the completion gate on the server's state now, and whether that state makes
// further waiting pointless.
func (in *Instance) Check(req Request) agent.Check {
	s := in.State()
	g := Gate(s, req)
	settled, why := Settle(s, g)
	return agent.Check{Gate: g, Settled: settled, SettledReason: why}
}

// Settler takes the server's state now and returns whether waiting on a gate evaluated after
// it is pointless (see the package-level Settle): a task file's own gate gets the app's
// refusals this way.
func (in *Instance) Settler() func(agent.Gate) (agent.Terminal, string) {
	s := in.State()
	return func(g agent.Gate) (agent.Terminal, string) { return Settle(s, g) }
}

// finishSave logs how the server answers a save whose latency has passed, according to the
// fault, and returns the refusal message for the page, empty when the save succeeded.
func (in *Instance) finishSave(title, room string) (refusal string, err error) {
	err = in.Tx(func(tx *labkit.Tx[State]) error {
		switch in.fault {
		case FaultRefused:
			reason := roomLabel(room) + " is closed for maintenance"
			refusal = "Save refused: " + reason
			return tx.Log(EventRefused, map[string]string{"reason": reason})
		case FaultWrongRoom:
			room = RoomSouth
		}
		if in.fault != FaultNoticeNoCommit {
			id := strconv.Itoa(len(tx.State().Records) + 1)
			if err := tx.Log(EventCommitted, map[string]string{"id": id, "title": title, "room": room}); err != nil {
				return err
			}
		}
		return tx.Log(EventSaveCompleted, nil)
	})
	return refusal, err
}

// records returns a copy of the committed records.
func (in *Instance) records() []Record { return slices.Clone(in.State().Records) }
