package agent

// fileBySender moves each request an executor's own step recorded back to the step that sent
// it. A page's record is cut at the end of every step and holds what ended during it, so a
// request sent late in one step whose answer came once the next had begun (a save the server
// refused after the click's step was observed) was listed under the later step. A request
// belongs to the first own step still running when it was sent (one sent between two steps,
// while the planner thought, to the next); it only ever moves back, and only to a step with
// room for it under MaxStepRequests. Observed steps (an outside agent's) are not touched:
// their times are the outside agent's, not the executor's.
func fileBySender(steps []Step) {
	for k := range steps {
		if steps[k].Provenance == Observed {
			continue
		}
		kept := steps[k].Requests[:0:0]
		for _, req := range steps[k].Requests {
			if j := sender(steps[:k], req.StartMS); j >= 0 && len(steps[j].Requests) < MaxStepRequests {
				steps[j].Requests = append(steps[j].Requests, req)
				continue
			}
			kept = append(kept, req)
		}
		if len(kept) != len(steps[k].Requests) {
			steps[k].Requests = kept
		}
	}
}

// sender is the index of the first own step among earlier that had not ended at startMS, the
// request's start; -1 when every one had (the request is the later step's own).
func sender(earlier []Step, startMS int64) int {
	for j, s := range earlier {
		if s.Provenance == Observed {
			continue
		}
		if startMS < s.StartMS+s.DurationMS {
			return j
		}
	}
	return -1
}
