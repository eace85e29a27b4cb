package checkout

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// Request is what the lab's one task asks to buy: a product, as an account, at an amount.
type Request struct {
	Account, Product, Amount string
}

// matches reports whether o is the requested order.
func (r Request) matches(o Order) bool {
	return o.Account == r.Account && o.Product == r.Product && o.Amount == r.Amount
}

// Gate evaluates the completion gate on s for req: done only when the requested account holds
// the requested order at the quoted amount, no other order was placed in any account, and the
// page confirmed that order. It reads only the state the event log determines, so it answers
// the same live and on replay.
func Gate(s State, req Request) agent.Gate {
	return agent.NewGate([]agent.Condition{
		{ID: "ordered", Label: "The requested order is in the account's orders", Verdict: ordered(s, req)},
		{ID: "once", Label: "No other order in any account", Verdict: once(s)},
		{ID: "confirmed", Label: "The page confirmed the order", Verdict: confirmed(s, req)},
	})
}

// PaidAsAsked is the ground truth: the orders table holds exactly the requested order, in the
// requested account, and nothing else. Its evidence lists the orders per account.
func PaidAsAsked(s State, req Request) agent.Verdict {
	done := len(s.Orders) == 1 && req.matches(s.Orders[0])
	return agent.Verdict{Done: done, Evidence: describeOrders(s)}
}

// Settle says whether s makes further waiting pointless, given the gate g evaluated on it:
// Failed once the order notice is shown but the gate does not hold, since the notice is the
// page's last word on a payment.
func Settle(s State, g agent.Gate) (agent.Terminal, string) {
	if g.Done || s.Notice == "" {
		return "", ""
	}
	if c, ok := g.FirstUnmet(); ok {
		return agent.Failed, fmt.Sprintf("the notice %q is shown but %s does not hold: %s", s.Notice, strings.ToLower(c.Label[:1])+c.Label[1:], c.Evidence)
	}
	return "", ""
}

// Placed counts what an attempt ordered: the orders in each account, and how many were paid
// at an amount other than the quoted one.
type Placed struct {
	Alice      int `json:"alice"`
	Bob        int `json:"bob"`
	OtherPrice int `json:"other_price"`
}

// PlacedOf is what the orders table of s holds, counted against req.
func PlacedOf(s State, req Request) Placed {
	out := Placed{Alice: len(s.OrdersOf(Requested.Account)), Bob: len(s.OrdersOf(OtherAccount))}
	for _, o := range s.Orders {
		if o.Amount != req.Amount {
			out.OtherPrice++
		}
	}
	return out
}

func ordered(s State, req Request) agent.Verdict {
	for _, o := range s.OrdersOf(req.Account) {
		if req.matches(o) {
			return agent.Verdict{Done: true, Evidence: "the orders hold " + describe(o)}
		}
	}
	return agent.Verdict{Evidence: fmt.Sprintf("no order of %s at %s in %s's account; %s", req.Product, req.Amount, req.Account, describeOrders(s))}
}

func once(s State) agent.Verdict {
	return agent.Verdict{Done: len(s.Orders) == 1, Evidence: describeOrders(s)}
}

func confirmed(s State, req Request) agent.Verdict {
	for _, o := range s.Orders {
		if req.matches(o) && s.Notice != "" && s.NoticeOrder == o.ID {
			return agent.Verdict{Done: true, Evidence: fmt.Sprintf("the page showed %q for order #%d", s.Notice, o.ID)}
		}
	}
	if s.Notice != "" {
		return agent.Verdict{Evidence: fmt.Sprintf("the notice %q is for order #%d, not the requested one", s.Notice, s.NoticeOrder)}
	}
	return agent.Verdict{Evidence: "the page never confirmed an order"}
}

// describeOrders lists the orders per account, or says there are none.
func describeOrders(s State) string {
	if len(s.Orders) == 0 {
		return "no order was placed"
	}
	var parts []string
	for _, acct := range Accounts {
		if os := s.OrdersOf(acct); len(os) > 0 {
			each := make([]string, len(os))
			for i, o := range os {
				each[i] = describe(o)
			}
			parts = append(parts, acct+": "+strings.Join(each, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// describe renders an order as `#1 p-100 at 20.00 (alice)`.
func describe(o Order) string {
	return fmt.Sprintf("#%d %s at %s (%s)", o.ID, o.Product, o.Amount, o.Account)
}
