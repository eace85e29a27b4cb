package runfile

import "observatory/backend/agent"

// MaxProseBytes bounds each free-text member the executor, planner and harness write in
// words: an attempt's title and reason, a step's reason, error, guidance and resolved name,
// its decision's reason, why and refused_by_page, its review's reason and its approvals'
// notes, who answered them and whom they refused. Each is a sentence or a first line of an error, far
// below it; a file over it was not written by a recording.
const MaxProseBytes = 16 << 10

// proseWithin refuses the first of a's free-text members over MaxProseBytes, at its path.
func proseWithin(a agent.Attempt, p string) *Error {
	if err := prose(p, "title", a.Title, "reason", a.Reason); err != nil {
		return err
	}
	for j, s := range a.Steps {
		sp := index(child(p, "steps"), j)
		if err := prose(sp, "reason", s.Reason, "error", s.Error, "guidance", s.Guidance, "resolved", s.Resolved, "output", s.Output); err != nil {
			return err
		}
		if err := prose(child(sp, "before"), "dom_skipped", s.Before.DOMSkipped); err != nil {
			return err
		}
		if err := prose(child(sp, "after"), "dom_skipped", s.After.DOMSkipped); err != nil {
			return err
		}
		if err := prose(child(sp, "decision"), "reason", s.Decision.Reason, "why", s.Decision.Why, "refused_by_page", s.Decision.RefusedByPage); err != nil {
			return err
		}
		if r := s.Decision.Review; r != nil {
			if err := prose(child(child(sp, "decision"), "review"), "reason", r.Reason); err != nil {
				return err
			}
		}
		for k, ap := range s.Approvals {
			ak := index(child(sp, "approvals"), k)
			if err := prose(ak, "note", ap.Note, "by", ap.By); err != nil {
				return err
			}
			if err := prose(child(ak, "request"), "effect", ap.Request.Effect, "why", ap.Request.Why); err != nil {
				return err
			}
			for m, f := range ap.Refused {
				if err := prose(index(child(ak, "refused"), m), "by", f.By, "why", f.Why); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// prose refuses the first text over MaxProseBytes among pairs of member name and text.
func prose(p string, pairs ...string) *Error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if n := len(pairs[i+1]); n > MaxProseBytes {
			return refuse(child(p, pairs[i]), "%d bytes of text: at most %d KiB here", n, MaxProseBytes>>10)
		}
	}
	return nil
}
