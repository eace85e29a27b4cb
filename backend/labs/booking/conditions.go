package booking

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// SavedNotice is the text of the success notice the page shows after a save.
const SavedNotice = "Reservation saved"

// Gate evaluates the completion gate on s for req: done only when all six conditions hold.
// It reads only the state the event log determines, so it gives the same answer live (on the
// server's state) and on import (on the replayed state).
func Gate(s State, req Request) agent.Gate {
	rec, found := target(s, req)
	return agent.NewGate([]agent.Condition{
		{ID: "record", Label: "Committed record exists", Verdict: recordExists(rec, found)},
		{ID: "title", Label: "Title matches the requested task", Verdict: recordMatches(rec, found, "titled", rec.Title, req.Title)},
		{ID: "room", Label: "Room matches the requested task", Verdict: recordMatches(rec, found, "in", rec.Room, req.Room)},
		{ID: "save", Label: "Save reached its completed state", Verdict: saveCompleted(s)},
		{ID: "dialog", Label: "Dialog is closed", Verdict: dialogClosed(s)},
		{ID: "notice", Label: "Success notice is present", Verdict: noticePresent(s)},
	})
}

// SavedAsAsked is the ground truth: whether the store holds a record with the task's title
// and room. Its evidence says what the store holds.
func SavedAsAsked(s State, req Request) agent.Verdict {
	rec, found := target(s, req)
	switch {
	case !found:
		return agent.Verdict{Evidence: "the store holds no record"}
	case rec.Title == req.Title && rec.Room == req.Room:
		return agent.Verdict{Done: true, Evidence: fmt.Sprintf("the store holds %s", describe(rec))}
	}
	return agent.Verdict{Evidence: fmt.Sprintf("the store holds %d record(s), the latest %s; want %q in %q",
		len(s.Records), describe(rec), req.Title, req.Room)}
}

// Settle says whether s makes further waiting pointless, given the gate g evaluated on it:
// Rejected once the latest save was refused; Failed once a success notice is shown for a save
// that committed no record, or for one whose record does not satisfy the gate. The notice is
// the page's last word on a save, so nothing after it can make the gate hold.
func Settle(s State, g agent.Gate) (agent.Terminal, string) {
	switch {
	case s.Phase == PhaseRefused:
		return agent.Rejected, fmt.Sprintf("the server refused the save: %s", s.Refusal)
	case s.Notice != "" && s.SaveRecord == 0:
		return agent.Failed, fmt.Sprintf("the notice %q is shown but the save committed no record", s.Notice)
	case s.Notice != "" && !g.Done:
		for _, c := range g.Conditions {
			if !c.Done {
				return agent.Failed, fmt.Sprintf("the notice %q is shown but %s does not hold: %s", s.Notice, strings.ToLower(c.Label[:1])+c.Label[1:], c.Evidence)
			}
		}
	}
	return "", ""
}

// target picks the record the gate judges: one matching the task when the store holds it,
// otherwise the latest record. found is false when the store is empty.
func target(s State, req Request) (rec Record, found bool) {
	for _, r := range s.Records {
		if r.Title == req.Title && r.Room == req.Room {
			return r, true
		}
	}
	if len(s.Records) == 0 {
		return Record{}, false
	}
	return s.Records[len(s.Records)-1], true
}

// describe renders a record as `#1 "Spectral scan" in "north"`.
func describe(r Record) string {
	return fmt.Sprintf("#%d %q in %q", r.ID, r.Title, r.Room)
}

func recordExists(rec Record, found bool) agent.Verdict {
	if !found {
		return agent.Verdict{Evidence: "no record is committed"}
	}
	return agent.Verdict{Done: true, Evidence: "record " + describe(rec) + " is committed"}
}

// recordMatches compares one field of the judged record (got) with the task's (want); how is
// the phrase that joins them ("titled", "in").
func recordMatches(rec Record, found bool, how, got, want string) agent.Verdict {
	if !found {
		return agent.Verdict{Evidence: fmt.Sprintf("no record to compare, want one %s %q", how, want)}
	}
	v := agent.Verdict{Done: got == want, Evidence: fmt.Sprintf("record #%d is %s %q", rec.ID, how, got)}
	if !v.Done {
		v.Evidence += fmt.Sprintf(", want %q", want)
	}
	return v
}

func saveCompleted(s State) agent.Verdict {
	return agent.Verdict{Done: s.Phase == PhaseCompleted, Evidence: fmt.Sprintf("the save is %s", s.Phase)}
}

func dialogClosed(s State) agent.Verdict {
	if s.DialogOpen {
		return agent.Verdict{Evidence: "the dialog is open"}
	}
	return agent.Verdict{Done: true, Evidence: "the dialog is closed"}
}

func noticePresent(s State) agent.Verdict {
	switch s.Notice {
	case SavedNotice:
		return agent.Verdict{Done: true, Evidence: fmt.Sprintf("notice %q is shown", s.Notice)}
	case "":
		return agent.Verdict{Evidence: "no notice is shown"}
	}
	return agent.Verdict{Evidence: fmt.Sprintf("notice reads %q, want %q", s.Notice, SavedNotice)}
}
