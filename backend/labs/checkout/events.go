package checkout

// Event types of the checkout lab's log. The page posts all but EventPaid, which the server
// logs when it stores an order.
const (
	EventCartAdded       = "cart_added"       // data: product, price
	EventPriceChanged    = "price_changed"    // data: product, price
	EventAccountSwitched = "account_switched" // data: account
	EventNoticeShown     = "notice_shown"     // data: order, text
	EventPaid            = "paid"             // data: order, account, product, amount
)

// eventKeys lists, for every known event type, exactly the data keys it carries.
var eventKeys = map[string][]string{
	EventCartAdded:       {"product", "price"},
	EventPriceChanged:    {"product", "price"},
	EventAccountSwitched: {"account"},
	EventNoticeShown:     {"order", "text"},
	EventPaid:            {"order", "account", "product", "amount"},
}

// pageEvents are the types the page may post to /api/events; EventPaid only the server logs.
var pageEvents = map[string]bool{EventCartAdded: true, EventPriceChanged: true, EventAccountSwitched: true, EventNoticeShown: true}
