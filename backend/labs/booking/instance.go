package booking

import (
	"slices"
	"strconv"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Instance is one running copy of the booking app on its host, with its own store and event
// log. It is safe for concurrent use.
type Instance struct{ *labkit.App[State] }

// Start serves a fresh instance on an ephemeral port of host (127.0.0.1 when empty). Every
// save waits latencyMS milliseconds before the server answers it.
func Start(host, fault string, latencyMS int) (*Instance, error) {
	return labkit.Launch(rules, host, fault, latencyMS,
		func(app *labkit.App[State]) *Instance { return &Instance{app} }, (*Instance).routes)
}

// Check evaluates the completion gate for req on the server's state now, and whether that
// state makes further waiting pointless.
func (in *Instance) Check(req Request) agent.Check {
	r := rules
	r.Gate = func(s State) agent.Gate { return Gate(s, req) }
	return r.Check(in.State())
}

// finishSave logs how the server answers a save whose latency has passed, according to the
// fault, and returns the refusal message for the page, empty when the save succeeded.
func (in *Instance) finishSave(title, room string) (refusal string, err error) {
	err = in.Tx(func(tx *labkit.Tx[State]) error {
		switch in.Fault() {
		case FaultRefused:
			reason := roomLabel(room) + " is closed for maintenance"
			refusal = "Save refused: " + reason
			return tx.Log(EventRefused, map[string]string{"reason": reason})
		case FaultWrongRoom:
			room = RoomSouth
		}
		if in.Fault() != FaultNoticeNoCommit {
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
