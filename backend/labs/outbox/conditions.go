package outbox

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// SentNotice is the text of the notice the page shows once the server answered a send.
const SentNotice = "Message sent"

// Request is what the lab's one task asks to send.
type Request struct {
	To, Subject, Body string
}

// matches reports whether m is the requested message.
func (r Request) matches(m Message) bool {
	return m.To == r.To && m.Subject == r.Subject && m.Body == r.Body
}

// Gate evaluates the completion gate on s for req: done only when the requested message is
// in the store, nothing else was sent, and the send was confirmed, by the page's notice or by
// a look-up of its operation id that found it exactly once. It reads only the state the event
// log determines, so it answers the same live and on replay.
func Gate(s State, req Request) agent.Gate {
	return agent.NewGate([]agent.Condition{
		{ID: "sent", Label: "The requested message is in the store", Verdict: stored(s, req)},
		{ID: "once", Label: "Nothing else was sent", Verdict: once(s)},
		{ID: "confirmed", Label: "The send was confirmed", Verdict: confirmed(s, req)},
	})
}

// SentAsAsked is the ground truth: the store holds exactly the requested message, once, and
// nothing else. Its evidence says how many messages were sent and to whom.
func SentAsAsked(s State, req Request) agent.Verdict {
	done := len(s.Messages) == 1 && req.matches(s.Messages[0])
	return agent.Verdict{Done: done, Evidence: describeSent(s.Messages)}
}

// Settle says whether s makes further waiting pointless, given the gate g evaluated on it:
// Ambiguous while the page shows that it could not confirm a send (whether it was sent is
// then known only to the store); Failed once the sent notice is shown but the gate does not
// hold, since the notice is the page's last word on a send.
func Settle(s State, g agent.Gate) (agent.Terminal, string) {
	if g.Done {
		return "", ""
	}
	switch {
	case s.Failure != "":
		return agent.Ambiguous, fmt.Sprintf("the page could not confirm the send of operation %s (%q): whether it was sent is known only to the store", s.FailureOp, s.Failure)
	case s.Notice != "":
		if c, ok := g.FirstUnmet(); ok {
			return agent.Failed, fmt.Sprintf("the notice %q is shown but %s does not hold: %s", s.Notice, strings.ToLower(c.Label[:1])+c.Label[1:], c.Evidence)
		}
	}
	return "", ""
}

// Sent counts what an attempt sent: the messages in the store, and how many of them went to
// someone other than the requested recipient.
type Sent struct {
	Messages int `json:"messages"`
	Wrong    int `json:"wrong"`
}

// SentOf is what the store of s holds, counted against req.
func SentOf(s State, req Request) Sent {
	out := Sent{Messages: len(s.Messages)}
	for _, m := range s.Messages {
		if m.To != req.To {
			out.Wrong++
		}
	}
	return out
}

func stored(s State, req Request) agent.Verdict {
	for _, m := range s.Messages {
		if req.matches(m) {
			return agent.Verdict{Done: true, Evidence: "the store holds " + describe(m)}
		}
	}
	return agent.Verdict{Evidence: fmt.Sprintf("no message to %s with subject %q; %s", req.To, req.Subject, describeSent(s.Messages))}
}

func once(s State) agent.Verdict {
	return agent.Verdict{Done: len(s.Messages) == 1, Evidence: describeSent(s.Messages)}
}

func confirmed(s State, req Request) agent.Verdict {
	for _, m := range s.Messages {
		if !req.matches(m) {
			continue
		}
		if s.Notice != "" && s.NoticeOp == m.OpID {
			return agent.Verdict{Done: true, Evidence: fmt.Sprintf("the page showed %q for operation %s", s.Notice, m.OpID)}
		}
		for _, l := range s.LookUps {
			if l.OpID == m.OpID && l.Found == 1 {
				return agent.Verdict{Done: true, Evidence: fmt.Sprintf("a look-up of operation %s found it once in the store", m.OpID)}
			}
		}
	}
	switch {
	case s.Failure != "":
		return agent.Verdict{Evidence: fmt.Sprintf("the page shows %q for operation %s, and no look-up found it once", s.Failure, s.FailureOp)}
	case s.Notice != "":
		return agent.Verdict{Evidence: fmt.Sprintf("the notice %q is for operation %s, not the requested message", s.Notice, s.NoticeOp)}
	}
	return agent.Verdict{Evidence: "neither a notice nor a look-up confirmed the send"}
}

// describeSent says how many messages were sent and to whom.
func describeSent(msgs []Message) string {
	if len(msgs) == 0 {
		return "no message was sent"
	}
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = describe(m)
	}
	noun := "messages"
	if len(msgs) == 1 {
		noun = "message"
	}
	return fmt.Sprintf("%d %s sent: %s", len(msgs), noun, strings.Join(parts, "; "))
}

// describe renders a message as `#1 to alice@example.com "Q3 figures" (op op-1)`.
func describe(m Message) string {
	return fmt.Sprintf("#%d to %s %q (op %s)", m.ID, m.To, m.Subject, m.OpID)
}
