package outbox

import (
	"fmt"
	"slices"
	"strconv"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Phase is where one operation (one op id's latest send) stands.
type Phase string

// Operation phases.
const (
	PhasePending   Phase = "pending"   // the server is handling it
	PhaseAnswered  Phase = "answered"  // the server answered it
	PhaseLost      Phase = "lost"      // committed, but the response never reached the page
	PhaseDropped   Phase = "dropped"   // the connection dropped before anything was committed
	PhaseCancelled Phase = "cancelled" // the page abandoned it before it was answered
)

// Op is one client operation id as the server has seen it.
type Op struct {
	ID    string `json:"op_id"`
	Phase Phase  `json:"phase"`
	// Commits counts the messages stored for it: 1 for a correct server.
	Commits int `json:"commits"`
}

// Message is one sent message in the authoritative store.
type Message struct {
	ID      int    `json:"id"`
	OpID    string `json:"op_id"`
	To      string `json:"to"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// LookUp is one question the store answered about an operation id, and its answer.
type LookUp struct {
	OpID  string `json:"op_id"`
	Found int    `json:"found"`
}

// State is the outbox app's state as its event log determines it. Apply computes each state
// from the one before; nothing edits it directly.
type State struct {
	// Seq is the sequence number of the last event applied, 0 before any; AtMS is its time.
	Seq  int   `json:"seq"`
	AtMS int64 `json:"at_ms"`
	// To, Subject and Body are the composer's fields as the page reported them.
	To      string `json:"to"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
	// Ops are the operation ids the server has received, in order.
	Ops []Op `json:"ops"`
	// Messages are the sent messages, oldest first.
	Messages []Message `json:"messages"`
	// Notice is the visible "sent" notice and NoticeOp the send it confirms; Failure is the
	// visible "could not confirm" alert and FailureOp the send it is about.
	Notice    string `json:"notice"`
	NoticeOp  string `json:"notice_op,omitempty"`
	Failure   string `json:"failure"`
	FailureOp string `json:"failure_op,omitempty"`
	// LookUps are the questions the store answered about operation ids.
	LookUps []LookUp `json:"look_ups"`
}

// Initial is the state before any event: an empty composer and an empty store.
func Initial() State {
	return State{Ops: []Op{}, Messages: []Message{}, LookUps: []LookUp{}}
}

// Rebuild replays events from the initial state through Apply and returns the final state, or
// the first illegal event's error.
func Rebuild(events []agent.Event) (State, error) {
	return rules.Rebuild(events)
}

// op returns the operation with the given id and its index, or -1.
func (s State) op(id string) (Op, int) {
	for i, o := range s.Ops {
		if o.ID == id {
			return o, i
		}
	}
	return Op{}, -1
}

// Stored counts the messages the store holds for an operation id.
func (s State) Stored(opID string) int {
	n := 0
	for _, m := range s.Messages {
		if m.OpID == opID {
			n++
		}
	}
	return n
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
	setPhase := func(p Phase, commits int) {
		o, i := next.op(d["op_id"])
		o.Phase, o.Commits = p, o.Commits+commits
		next.Ops = slices.Clone(next.Ops)
		if i < 0 {
			next.Ops = append(next.Ops, o)
		} else {
			next.Ops[i] = o
		}
	}
	switch ev.Type {
	case EventFieldChanged:
		switch d["field"] {
		case FieldTo:
			next.To = d["value"]
		case FieldSubject:
			next.Subject = d["value"]
		default:
			next.Body = d["value"]
		}
	case EventReceived:
		if _, i := s.op(d["op_id"]); i < 0 {
			next.Ops = append(slices.Clip(s.Ops), Op{ID: d["op_id"], Phase: PhasePending})
		} else {
			setPhase(PhasePending, 0)
		}
		next.Notice, next.NoticeOp, next.Failure, next.FailureOp = "", "", "", ""
	case EventCommitted:
		id, _ := strconv.Atoi(d["id"])
		next.Messages = append(slices.Clip(s.Messages), Message{ID: id, OpID: d["op_id"], To: d["to"], Subject: d["subject"], Body: d["body"]})
		setPhase(PhasePending, 1)
	case EventAnswered:
		setPhase(PhaseAnswered, 0)
	case EventResponseLost:
		setPhase(PhaseLost, 0)
	case EventDropped:
		setPhase(PhaseDropped, 0)
	case EventCancelled:
		setPhase(PhaseCancelled, 0)
	case EventNoticeShown:
		next.Notice, next.NoticeOp = d["text"], d["op_id"]
	case EventSendFailed:
		next.Failure, next.FailureOp = d["text"], d["op_id"]
	case EventLookedUp:
		found, _ := strconv.Atoi(d["found"])
		next.LookUps = append(slices.Clip(s.LookUps), LookUp{OpID: d["op_id"], Found: found})
	}
	return next
}

// check returns why ev cannot follow s, or "" when it can.
func check(s State, ev agent.Event) string {
	if r := labkit.CheckEvent(s.Seq, s.AtMS, ev, eventKeys); r != "" {
		return r
	}
	d := ev.Data
	o, known := s.op(d["op_id"])
	switch ev.Type {
	case EventFieldChanged:
		if f := d["field"]; f != FieldTo && f != FieldSubject && f != FieldBody {
			return fmt.Sprintf("unknown field %q, want %q, %q or %q", f, FieldTo, FieldSubject, FieldBody)
		}
	case EventReceived:
		switch {
		case d["op_id"] == "":
			return "the send has no operation id"
		case known >= 0 && o.Phase == PhasePending:
			return fmt.Sprintf("operation %s is already being handled", o.ID)
		case d["to"] == "":
			return "the send has no recipient"
		case d["to"] != s.To || d["subject"] != s.Subject || d["body"] != s.Body:
			return fmt.Sprintf("the send is to %q, %q, but the composer holds %q, %q", d["to"], d["subject"], s.To, s.Subject)
		}
	case EventCommitted:
		id, err := strconv.Atoi(d["id"])
		switch {
		case known < 0 || o.Phase != PhasePending:
			return fmt.Sprintf("operation %q is not being handled", d["op_id"])
		case err != nil || id != len(s.Messages)+1:
			return fmt.Sprintf("message id %q, want %d", d["id"], len(s.Messages)+1)
		case d["to"] == "":
			return "the message has no recipient"
		}
	case EventAnswered, EventCancelled:
		if known < 0 || o.Phase != PhasePending {
			return fmt.Sprintf("operation %q is not being handled", d["op_id"])
		}
	case EventResponseLost:
		if known < 0 || o.Phase != PhasePending || o.Commits == 0 {
			return fmt.Sprintf("operation %q has no commit whose response could be lost", d["op_id"])
		}
	case EventDropped:
		if known < 0 || o.Phase != PhasePending || o.Commits > 0 {
			return fmt.Sprintf("operation %q is not an uncommitted send being handled", d["op_id"])
		}
	case EventNoticeShown:
		switch {
		case known < 0 || o.Phase != PhaseAnswered:
			return fmt.Sprintf("operation %q was not answered", d["op_id"])
		case d["text"] == "":
			return "the notice has no text"
		}
	case EventSendFailed:
		switch {
		case known < 0 || (o.Phase != PhaseLost && o.Phase != PhaseDropped):
			return fmt.Sprintf("operation %q did not lose its connection", d["op_id"])
		case d["text"] == "":
			return "the alert has no text"
		}
	case EventLookedUp:
		if got, want := d["found"], strconv.Itoa(s.Stored(d["op_id"])); got != want {
			return fmt.Sprintf("the store holds %s message(s) for operation %q, not %s", want, d["op_id"], got)
		}
	}
	return ""
}
