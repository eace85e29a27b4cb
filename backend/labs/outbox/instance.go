package outbox

import (
	"slices"
	"strconv"
	"sync"

	"observatory/backend/labs/internal/labkit"
)

// Instance is one running copy of the outbox app on its host, with its own store and event
// log. It is safe for concurrent use.
type Instance struct {
	*labkit.App[State]

	mu     sync.Mutex
	struck bool // the fault has struck its one send
}

// Start serves a fresh instance on an ephemeral port of host (127.0.0.1 when empty). Every
// send waits latencyMS milliseconds before the server answers it.
func Start(host, fault string, latencyMS int) (*Instance, error) {
	return labkit.Launch(rules, host, fault, latencyMS,
		func(app *labkit.App[State]) *Instance { return &Instance{App: app} }, (*Instance).routes)
}

// strike reports whether the instance's fault strikes this send: the first send only, and
// only for the given faults.
func (in *Instance) strike(faults ...string) bool {
	if !slices.Contains(faults, in.Fault()) {
		return false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.struck {
		return false
	}
	in.struck = true
	return true
}

// outcome is how the server ends one send.
type outcome int

const (
	answered outcome = iota // answer the page
	hangUp                  // drop the connection without an answer
)

// receive logs a send request. A request for an operation id already stored is answered as
// it was, without storing it again: the server is idempotent by operation id.
func (in *Instance) receive(req sendRequest) (duplicate bool, err error) {
	err = in.Tx(func(tx *labkit.Tx[State]) error {
		if err := tx.Log(EventReceived, map[string]string{"op_id": req.OpID, "to": req.To, "subject": req.Subject, "body": req.Body}); err != nil {
			return err
		}
		if tx.State().Stored(req.OpID) == 0 {
			return nil
		}
		duplicate = true
		return tx.Log(EventAnswered, map[string]string{"op_id": req.OpID})
	})
	return duplicate, err
}

// finish commits a send whose latency has passed and logs how the server ends it, according
// to the fault.
func (in *Instance) finish(req sendRequest) (outcome, error) {
	op := map[string]string{"op_id": req.OpID}
	if in.strike(FaultDropped) {
		return hangUp, in.Log(EventDropped, op)
	}
	twice := in.strike(FaultDeliveredTwice)
	lost := twice || in.strike(FaultResponseLost)
	copies := 1
	if twice {
		copies = 2
	}
	err := in.Tx(func(tx *labkit.Tx[State]) error {
		for range copies {
			id := strconv.Itoa(len(tx.State().Messages) + 1)
			if err := tx.Log(EventCommitted, map[string]string{"id": id, "op_id": req.OpID, "to": req.To, "subject": req.Subject, "body": req.Body}); err != nil {
				return err
			}
		}
		if lost {
			return tx.Log(EventResponseLost, op)
		}
		return tx.Log(EventAnswered, op)
	})
	if lost {
		return hangUp, err
	}
	return answered, err
}

// lookUp answers how many messages the store holds for an operation id, and logs the question
// with its answer.
func (in *Instance) lookUp(opID string) (found []Message, err error) {
	err = in.Tx(func(tx *labkit.Tx[State]) error {
		for _, m := range tx.State().Messages {
			if m.OpID == opID {
				found = append(found, m)
			}
		}
		return tx.Log(EventLookedUp, map[string]string{"op_id": opID, "found": strconv.Itoa(len(found))})
	})
	return found, err
}
