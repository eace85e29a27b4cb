package outbox

// Fault modes an instance can be started with (agent.AttemptSpec.Fault). Each fault strikes
// the first send only; a retry finds the server working.
const (
	// FaultNone sends normally.
	FaultNone = "none"
	// FaultResponseLost commits the send, then drops the connection before answering.
	FaultResponseLost = "response-lost"
	// FaultDropped drops the connection before the send is committed.
	FaultDropped = "dropped"
	// FaultSlowSend answers the send after SlowSendMS instead of the usual latency.
	FaultSlowSend = "slow-send"
	// FaultDeliveredTwice commits the same request twice, two rows for one operation id as a
	// buggy server (or a proxy replaying it) would, and the response is lost.
	FaultDeliveredTwice = "delivered-twice"
	// FaultRecipientChanged has the page rewrite the To field, as its address book
	// "resolves" the contact, the moment the pointer reaches Send.
	FaultRecipientChanged = "recipient-changed"
)

// Faults lists every fault mode.
var Faults = []string{FaultNone, FaultResponseLost, FaultDropped, FaultSlowSend, FaultDeliveredTwice, FaultRecipientChanged}
