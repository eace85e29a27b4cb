package checkout

import (
	"fmt"
	"strconv"
	"time"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Instance is one running copy of the checkout app on 127.0.0.1, with its own store and event
// log. It is safe for concurrent use.
type Instance struct {
	fault   string
	latency time.Duration
	labkit.App[State]
}

// Start serves a fresh instance on an ephemeral port of 127.0.0.1. Every payment waits
// latencyMS milliseconds before the server answers it.
func Start(host, fault string, latencyMS int) (*Instance, error) {
	if err := checkFault(fault); err != nil {
		return nil, err
	}
	if latencyMS < 0 {
		return nil, fmt.Errorf("checkout lab latency %d ms: want 0 or more", latencyMS)
	}
	in := &Instance{fault: fault, latency: time.Duration(latencyMS) * time.Millisecond,
		App: labkit.NewApp(Initial(), Apply)}
	if err := in.Serve("checkout lab", host, in.routes()); err != nil {
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
// it is pointless.
func (in *Instance) Settler() func(agent.Gate) (agent.Terminal, string) {
	s := in.State()
	return func(g agent.Gate) (agent.Terminal, string) { return Settle(s, g) }
}

// pay stores an order for account, as one step with the check that the cart and the
// signed-in account allow it, and returns its number.
func (in *Instance) pay(account string, req payRequest) (int, error) {
	var id int
	err := in.Tx(func(tx *labkit.Tx[State]) error {
		id = len(tx.State().Orders) + 1
		return tx.Log(EventPaid, map[string]string{"order": strconv.Itoa(id), "account": account, "product": req.Product, "amount": req.Amount})
	})
	return id, err
}
