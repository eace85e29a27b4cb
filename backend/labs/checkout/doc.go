// Package checkout is the "Checkout" lab: a shop page served by Go on 127.0.0.1 (a product
// card with its id and price, Add to cart, Pay, an account switcher) whose orders are stored
// per account, plus the fault modes, the scripted attempts and the completion gate written
// for its one task: buy the lab notebook, as alice, at the price quoted.
//
// The signed-in account is the account cookie, which the page's switcher (or another tab)
// changes; an order goes to the account the cookie names when Pay is pressed. The faults are
// the ones a state-aware harness must tell apart: the price changes between observing and
// paying, the account changes in another tab, a promotion banner shifts the layout (harmless),
// and an A/B flag renames Pay.
//
// As in the other labs, every app event is logged in order, by the page (the cart, a price
// change, an account switch, the order notice) or by the server (an order paid). Apply is the
// one transition function over them, live and on replay.
package checkout
