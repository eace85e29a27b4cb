package outbox

// Event types of the outbox lab's log. The page posts the first three; the server logs the
// rest itself.
const (
	EventFieldChanged = "field_changed" // data: field (to|subject|body), value
	EventNoticeShown  = "notice_shown"  // data: op_id, text
	EventSendFailed   = "send_failed"   // data: op_id, text: the page got no answer to a send
	EventReceived     = "send_received" // data: op_id, to, subject, body
	EventCommitted    = "committed"     // data: id, op_id, to, subject, body
	EventAnswered     = "answered"      // data: op_id: the server answered the send
	EventResponseLost = "response_lost" // data: op_id: committed, then the connection dropped
	EventDropped      = "dropped"       // data: op_id: the connection dropped before the commit
	EventCancelled    = "cancelled"     // data: op_id: the page abandoned the send
	EventLookedUp     = "looked_up"     // data: op_id, found: the store was asked for an operation
)

// eventKeys lists, for every known event type, exactly the data keys it carries.
var eventKeys = map[string][]string{
	EventFieldChanged: {"field", "value"},
	EventNoticeShown:  {"op_id", "text"},
	EventSendFailed:   {"op_id", "text"},
	EventReceived:     {"op_id", "to", "subject", "body"},
	EventCommitted:    {"id", "op_id", "to", "subject", "body"},
	EventAnswered:     {"op_id"},
	EventResponseLost: {"op_id"},
	EventDropped:      {"op_id"},
	EventCancelled:    {"op_id"},
	EventLookedUp:     {"op_id", "found"},
}

// pageEvents are the types the page may post to /api/events; the others only the server logs.
var pageEvents = map[string]bool{EventFieldChanged: true, EventNoticeShown: true, EventSendFailed: true}

// Composer fields a field_changed event can name.
const (
	FieldTo      = "to"
	FieldSubject = "subject"
	FieldBody    = "body"
)
