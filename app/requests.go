package app

import "observatory/backend/agent"

// AttemptRequest is one HTTP request of an attempt, with the step during which it ended.
type AttemptRequest struct {
	// Step is the position of that step in the attempt, from 0.
	Step int `json:"step"`
	agent.Request
}

// AttemptRequests is every recorded request of one attempt, and how many its steps' limits
// left out.
type AttemptRequests struct {
	Requests []AttemptRequest `json:"requests"`
	Dropped  int              `json:"dropped,omitempty"`
}

// Requests lists the HTTP requests of every step of attempt slug of stored run id, step by
// step in the order they ended: the whole attempt's network table.
func (h *History) Requests(id, slug string) (AttemptRequests, error) {
	a, err := attemptOf(h.store, id, slug)
	if err != nil {
		return AttemptRequests{}, err
	}
	out := AttemptRequests{Requests: []AttemptRequest{}}
	for k, s := range a.Steps {
		for _, q := range s.Requests {
			out.Requests = append(out.Requests, AttemptRequest{Step: k, Request: q})
		}
		out.Dropped += s.Dropped.Requests
	}
	return out, nil
}
