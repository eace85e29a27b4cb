package agent

import (
	"fmt"
	"strings"
	"time"
)

// NoAnswer is an Approver's error for a question it held without anyone answering it; Why
// says why, in the user's words ("nobody to ask (no terminal, no window open)"). The
// approval's record and the attempt's reason say "held: " and Why.
type NoAnswer struct{ Why string }

func (e NoAnswer) Error() string { return e.Why }

// ErrNobodyToAsk is an Approver's answer when no terminal and no window could be asked.
var ErrNobodyToAsk = NoAnswer{Why: "nobody to ask (no terminal, no window open)"}

// Ended says how an approval request ended, as it happened: "approved in the window",
// "denied by you at the terminal", "held: no answer within 60 s". by is who answered
// ("terminal", "window" or "window (…)"; "" when the approver does not say), and note why a
// request was held (without "held: ").
func Ended(answer ApprovalAnswer, by, note string) string {
	switch answer {
	case AnswerApprove:
		return "approved" + answeredBy(by)
	case AnswerDeny:
		return "denied" + answeredBy(by)
	}
	if note == "" {
		note = "no answer"
	}
	return "held: " + note
}

// answeredBy is where an answer came from, in words that follow "approved" or "denied".
func answeredBy(by string) string {
	switch {
	case by == "terminal":
		return " by you at the terminal"
	case strings.HasPrefix(by, "window"):
		return " in the " + by
	case by != "":
		return " by " + by
	}
	return " by the user"
}

// within is a time limit in words: "60 s", or "1500 ms" when not whole seconds.
func within(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}
