package checkout

import (
	"errors"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// log numbers events in order, one millisecond apart.
func log(evs ...agent.Event) []agent.Event {
	for i := range evs {
		evs[i].Seq, evs[i].AtMS = i+1, int64(i)
	}
	return evs
}

func ev(typ string, kv ...string) agent.Event {
	d := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		d[kv[i]] = kv[i+1]
	}
	return agent.Event{Type: typ, Data: d}
}

var (
	added     = ev(EventCartAdded, "product", Product.ID, "price", "20.00")
	toBob     = ev(EventAccountSwitched, "account", OtherAccount)
	repriced  = ev(EventPriceChanged, "product", Product.ID, "price", ChangedPrice)
	paidAlice = ev(EventPaid, "order", "1", "account", "alice", "product", Product.ID, "amount", "20.00")
	noticed   = ev(EventNoticeShown, "order", "1", "text", "Order #1 placed")
)

func TestApplyRebuildsEachStory(t *testing.T) {
	tests := []struct {
		name     string
		events   []agent.Event
		placed   Placed
		gate     bool
		settled  agent.Terminal
		truthHas string
	}{
		{"paid and confirmed", []agent.Event{added, paidAlice, noticed}, Placed{Alice: 1}, true, "", "alice: #1 p-100 at 20.00"},
		{"paid, not yet confirmed", []agent.Event{added, paidAlice}, Placed{Alice: 1}, false, "", "alice: #1"},
		{"paid at the new price", []agent.Event{added, repriced, ev(EventPaid, "order", "1", "account", "alice", "product", Product.ID, "amount", ChangedPrice), noticed},
			Placed{Alice: 1, OtherPrice: 1}, false, agent.Failed, "at 25.00"},
		{"paid as bob", []agent.Event{added, toBob, ev(EventPaid, "order", "1", "account", OtherAccount, "product", Product.ID, "amount", "20.00"), noticed},
			Placed{Bob: 1}, false, agent.Failed, "bob: #1"},
		{"nothing paid", []agent.Event{added, toBob}, Placed{}, false, "", "no order was placed"},
	}
	for _, tt := range tests {
		s, err := Rebuild(log(tt.events...))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		g := Gate(s, Requested)
		settled, _ := Settle(s, g)
		truth := PaidAsAsked(s, Requested)
		if got := PlacedOf(s, Requested); got != tt.placed || g.Done != tt.gate || settled != tt.settled || !strings.Contains(truth.Evidence, tt.truthHas) {
			t.Errorf("%s: placed %+v, gate %v, settled %q, truth %q; want %+v, %v, %q, %q",
				tt.name, got, g.Done, settled, truth.Evidence, tt.placed, tt.gate, tt.settled, tt.truthHas)
		}
	}
}

func TestApplyRefusesIllegalOrders(t *testing.T) {
	tests := []struct {
		name   string
		events []agent.Event
		reason string
	}{
		{"a payment without a cart", []agent.Event{paidAlice}, "cart holds"},
		{"a payment as an account not signed in", []agent.Event{added, ev(EventPaid, "order", "1", "account", OtherAccount, "product", Product.ID, "amount", "20.00")}, "is signed in"},
		{"a payment at a price the cart does not hold", []agent.Event{added, ev(EventPaid, "order", "1", "account", "alice", "product", Product.ID, "amount", "1.00")}, "cart's price"},
		{"a skipped order number", []agent.Event{added, ev(EventPaid, "order", "2", "account", "alice", "product", Product.ID, "amount", "20.00")}, "order number"},
		{"a notice for no order", []agent.Event{noticed}, "no order"},
		{"an unknown account", []agent.Event{ev(EventAccountSwitched, "account", "mallory")}, "unknown account"},
		{"an unknown product", []agent.Event{ev(EventCartAdded, "product", "p-999", "price", "20.00")}, "unknown product"},
		{"added at a price not quoted", []agent.Event{ev(EventCartAdded, "product", Product.ID, "price", "1.00")}, "quoted at 20.00"},
		{"an unknown event", []agent.Event{ev("refunded", "order", "1")}, "unknown event type"},
	}
	for _, tt := range tests {
		_, err := Rebuild(log(tt.events...))
		var ee *labkit.EventError
		if !errors.As(err, &ee) || !strings.Contains(ee.Reason, tt.reason) {
			t.Errorf("%s: %v, want an event error saying %q", tt.name, err, tt.reason)
		}
	}
}
