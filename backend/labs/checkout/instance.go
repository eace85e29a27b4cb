package checkout

import (
	"strconv"

	"observatory/backend/labs/internal/labkit"
)

// Instance is one running copy of the checkout app on its host, with its own store and event
// log. It is safe for concurrent use.
type Instance struct{ *labkit.App[State] }

// Start serves a fresh instance on an ephemeral port of host (127.0.0.1 when empty). Every
// payment waits latencyMS milliseconds before the server answers it.
func Start(host, fault string, latencyMS int) (*Instance, error) {
	return labkit.Launch(rules, host, fault, latencyMS,
		func(app *labkit.App[State]) *Instance { return &Instance{app} }, (*Instance).routes)
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
