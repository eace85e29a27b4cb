package checkout

import (
	"fmt"
	"slices"
	"strconv"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Order is one paid order in the authoritative store.
type Order struct {
	ID      int    `json:"id"`
	Account string `json:"account"`
	Product string `json:"product"`
	Amount  string `json:"amount"`
}

// State is the checkout app's state as its event log determines it. Apply computes each
// state from the one before; nothing edits it directly.
type State struct {
	// Seq is the sequence number of the last event applied, 0 before any; AtMS is its time.
	Seq  int   `json:"seq"`
	AtMS int64 `json:"at_ms"`
	// Account is the signed-in account; Price the product's price as the page quotes it.
	Account string `json:"account"`
	Price   string `json:"price"`
	// Cart is the product in the cart and CartPrice the price it was added at; empty before.
	Cart      string `json:"cart"`
	CartPrice string `json:"cart_price"`
	// Orders are the paid orders of every account, oldest first.
	Orders []Order `json:"orders"`
	// Notice is the visible "order placed" notice and NoticeOrder the order it is about.
	Notice      string `json:"notice"`
	NoticeOrder int    `json:"notice_order,omitempty"`
}

// Initial is the state before any event: alice signed in, the product at its quoted price,
// an empty cart and no orders.
func Initial() State {
	return State{Account: Requested.Account, Price: Requested.Amount, Orders: []Order{}}
}

// Rebuild replays events from the initial state through Apply and returns the final state, or
// the first illegal event's error.
func Rebuild(events []agent.Event) (State, error) {
	return rules.Rebuild(events)
}

// OrdersOf lists the orders of one account.
func (s State) OrdersOf(account string) []Order {
	var out []Order
	for _, o := range s.Orders {
		if o.Account == account {
			out = append(out, o)
		}
	}
	return out
}

// Apply returns the state after ev, or a *labkit.EventError when ev cannot follow s: a
// sequence number that is not the next one, a time before the previous event's, an unknown
// type, missing or unexpected data, or an order the app cannot produce. s is never modified.
func Apply(s State, ev agent.Event) (State, error) { return labkit.Checked(s, ev, check, after) }

// after is the state after ev, which check lets follow s.
func after(s State, ev agent.Event) State {
	next := s
	next.Seq, next.AtMS = ev.Seq, ev.AtMS
	d := ev.Data
	switch ev.Type {
	case EventCartAdded:
		next.Cart, next.CartPrice = d["product"], d["price"]
	case EventPriceChanged:
		next.Price = d["price"]
		if next.Cart != "" {
			next.CartPrice = d["price"]
		}
	case EventAccountSwitched:
		next.Account = d["account"]
	case EventPaid:
		id, _ := strconv.Atoi(d["order"])
		next.Orders = append(slices.Clip(s.Orders), Order{ID: id, Account: d["account"], Product: d["product"], Amount: d["amount"]})
		next.Cart, next.CartPrice = "", ""
	case EventNoticeShown:
		next.NoticeOrder, _ = strconv.Atoi(d["order"])
		next.Notice = d["text"]
	}
	return next
}

// check returns why ev cannot follow s, or "" when it can.
func check(s State, ev agent.Event) string {
	if r := labkit.CheckEvent(s.Seq, s.AtMS, ev, eventKeys); r != "" {
		return r
	}
	d := ev.Data
	switch ev.Type {
	case EventCartAdded, EventPriceChanged:
		switch {
		case d["product"] != Product.ID:
			return fmt.Sprintf("unknown product %q, want %q", d["product"], Product.ID)
		case d["price"] == "":
			return "no price"
		case ev.Type == EventCartAdded && d["price"] != s.Price:
			return fmt.Sprintf("added at %s, but the product is quoted at %s", d["price"], s.Price)
		}
	case EventAccountSwitched:
		if !slices.Contains(Accounts, d["account"]) {
			return fmt.Sprintf("unknown account %q, want one of %v", d["account"], Accounts)
		}
	case EventPaid:
		id, err := strconv.Atoi(d["order"])
		switch {
		case err != nil || id != len(s.Orders)+1:
			return fmt.Sprintf("order number %q, want %d", d["order"], len(s.Orders)+1)
		case s.Cart == "" || d["product"] != s.Cart:
			return fmt.Sprintf("paid for %q, but the cart holds %q", d["product"], s.Cart)
		case d["amount"] != s.CartPrice:
			return fmt.Sprintf("paid %s, but the cart's price is %s", d["amount"], s.CartPrice)
		case d["account"] != s.Account:
			return fmt.Sprintf("paid as %q, but %q is signed in", d["account"], s.Account)
		}
	case EventNoticeShown:
		id, err := strconv.Atoi(d["order"])
		switch {
		case err != nil || id < 1 || id > len(s.Orders):
			return fmt.Sprintf("no order %q to confirm", d["order"])
		case d["text"] == "":
			return "the notice has no text"
		}
	}
	return ""
}
