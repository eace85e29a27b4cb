package checkout

import (
	"fmt"
	"net/http"

	"observatory/backend/labs/internal/labkit"
)

// accountCookie names the cookie that says who is signed in.
const accountCookie = "account"

// routes is the app's HTTP surface.
func (in *Instance) routes() http.Handler {
	mux := in.Routes(site, in.page, pageEvents)
	mux.HandleFunc("GET /api/orders", in.handleOrders)
	mux.HandleFunc("POST /api/pay", in.handlePay)
	return mux
}

// handleOrders serves the orders table per account.
func (in *Instance) handleOrders(w http.ResponseWriter, r *http.Request) {
	s := in.State()
	out := map[string][]Order{}
	for _, a := range Accounts {
		out[a] = append([]Order{}, s.OrdersOf(a)...)
	}
	labkit.WriteJSON(w, http.StatusOK, out)
}

// payRequest is the body of POST /api/pay.
type payRequest struct {
	Product string `json:"product"`
	Amount  string `json:"amount"`
}

// paidAnswer is the answer to a stored order.
type paidAnswer struct {
	Order   int    `json:"order"`
	Account string `json:"account"`
	Amount  string `json:"amount"`
}

// handlePay waits the instance's latency, then stores the order for the account the cookie
// names and answers with its number. A request abandoned during the wait pays nothing.
func (in *Instance) handlePay(w http.ResponseWriter, r *http.Request) {
	var req payRequest
	if err := labkit.ReadJSON(r, &req); err != nil {
		labkit.WriteError(w, err)
		return
	}
	c, err := r.Cookie(accountCookie)
	if err != nil {
		labkit.WriteError(w, fmt.Errorf("nobody is signed in: the %s cookie is missing", accountCookie))
		return
	}
	if !in.Wait(r) {
		return // the page left; nothing is paid
	}
	id, err := in.pay(c.Value, req)
	if err != nil {
		labkit.WriteError(w, err)
		return
	}
	labkit.WriteJSON(w, http.StatusOK, paidAnswer{Order: id, Account: c.Value, Amount: req.Amount})
}
