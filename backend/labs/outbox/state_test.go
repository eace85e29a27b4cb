package outbox

import (
	"errors"
	"strconv"
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

// composed fills the composer with the requested message.
func composed() []agent.Event {
	return []agent.Event{
		ev(EventFieldChanged, "field", FieldTo, "value", Requested.To),
		ev(EventFieldChanged, "field", FieldSubject, "value", Requested.Subject),
		ev(EventFieldChanged, "field", FieldBody, "value", Requested.Body),
	}
}

func received(op string) agent.Event {
	return ev(EventReceived, "op_id", op, "to", Requested.To, "subject", Requested.Subject, "body", Requested.Body)
}

func committed(id int, op string) agent.Event {
	return ev(EventCommitted, "id", strconv.Itoa(id), "op_id", op, "to", Requested.To, "subject", Requested.Subject, "body", Requested.Body)
}

func TestApplyRebuildsEachStory(t *testing.T) {
	tests := []struct {
		name     string
		events   []agent.Event
		sent     Sent
		gate     bool
		settled  agent.Terminal
		truthHas string
	}{
		{"sent and confirmed", append(composed(), received("a"), committed(1, "a"), ev(EventAnswered, "op_id", "a"),
			ev(EventNoticeShown, "op_id", "a", "text", SentNotice)), Sent{1, 0}, true, "", "1 message sent"},
		{"response lost", append(composed(), received("a"), committed(1, "a"), ev(EventResponseLost, "op_id", "a"),
			ev(EventSendFailed, "op_id", "a", "text", "lost")), Sent{1, 0}, false, agent.Ambiguous, "1 message sent"},
		{"response lost, looked up once", append(composed(), received("a"), committed(1, "a"), ev(EventResponseLost, "op_id", "a"),
			ev(EventSendFailed, "op_id", "a", "text", "lost"), ev(EventLookedUp, "op_id", "a", "found", "1")), Sent{1, 0}, true, "", "1 message sent"},
		{"dropped, then retried with the same id", append(composed(), received("a"), ev(EventDropped, "op_id", "a"),
			ev(EventSendFailed, "op_id", "a", "text", "lost"), ev(EventLookedUp, "op_id", "a", "found", "0"),
			received("a"), committed(1, "a"), ev(EventAnswered, "op_id", "a"), ev(EventNoticeShown, "op_id", "a", "text", SentNotice)),
			Sent{1, 0}, true, "", "1 message sent"},
		{"a retry of a stored id is answered without a commit", append(composed(), received("a"), committed(1, "a"),
			ev(EventResponseLost, "op_id", "a"), received("a"), ev(EventAnswered, "op_id", "a")), Sent{1, 0}, false, "", "1 message sent"},
		{"delivered twice", append(composed(), received("a"), committed(1, "a"), committed(2, "a"), ev(EventAnswered, "op_id", "a"),
			ev(EventNoticeShown, "op_id", "a", "text", SentNotice)), Sent{2, 0}, false, agent.Failed, "2 messages sent"},
		{"nothing sent", composed(), Sent{0, 0}, false, "", "no message was sent"},
	}
	for _, tt := range tests {
		s, err := Rebuild(log(tt.events...))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		g := Gate(s, Requested)
		settled, _ := Settle(s, g)
		truth := SentAsAsked(s, Requested)
		if got := SentOf(s, Requested); got != tt.sent || g.Done != tt.gate || settled != tt.settled || !strings.Contains(truth.Evidence, tt.truthHas) {
			t.Errorf("%s: sent %+v, gate %v, settled %q, truth %q; want %+v, %v, %q, %q",
				tt.name, got, g.Done, settled, truth.Evidence, tt.sent, tt.gate, tt.settled, tt.truthHas)
		}
	}
}

func TestApplyRefusesIllegalOrders(t *testing.T) {
	tests := []struct {
		name   string
		events []agent.Event
		reason string
	}{
		{"a commit nobody asked for", append(composed(), committed(1, "a")), "not being handled"},
		{"a send unlike the composer", append(composed(), ev(EventReceived, "op_id", "a", "to", "x@y", "subject", "s", "body", "b")), "composer holds"},
		{"a send without an id", append(composed(), received("")), "no operation id"},
		{"the same id twice at once", append(composed(), received("a"), received("a")), "already being handled"},
		{"a lost response without a commit", append(composed(), received("a"), ev(EventResponseLost, "op_id", "a")), "no commit"},
		{"a drop after a commit", append(composed(), received("a"), committed(1, "a"), ev(EventDropped, "op_id", "a")), "not an uncommitted"},
		{"a notice for an unanswered send", append(composed(), received("a"), ev(EventNoticeShown, "op_id", "a", "text", SentNotice)), "was not answered"},
		{"a failure for an answered send", append(composed(), received("a"), committed(1, "a"), ev(EventAnswered, "op_id", "a"),
			ev(EventSendFailed, "op_id", "a", "text", "lost")), "did not lose"},
		{"a look-up with the wrong answer", append(composed(), received("a"), committed(1, "a"), ev(EventLookedUp, "op_id", "a", "found", "0")), "holds 1"},
		{"a skipped message id", append(composed(), received("a"), committed(2, "a")), "message id"},
		{"an unknown field", []agent.Event{ev(EventFieldChanged, "field", "cc", "value", "x")}, "unknown field"},
		{"an unknown event", []agent.Event{ev("sent", "op_id", "a")}, "unknown event type"},
	}
	for _, tt := range tests {
		_, err := Rebuild(log(tt.events...))
		var ee *labkit.EventError
		if !errors.As(err, &ee) || !strings.Contains(ee.Reason, tt.reason) {
			t.Errorf("%s: %v, want an event error saying %q", tt.name, err, tt.reason)
		}
	}
}
