package runfile

import "observatory/backend/agent"

// AttemptReplay is one attempt rebuilt from its evidence, as the UI's replay view shows it.
type AttemptReplay struct {
	// Frames are the app's states event by event; empty when its app keeps no event log.
	Frames        []agent.Frame  `json:"frames"`
	Recorded      agent.Verdicts `json:"recorded"`
	Recomputed    agent.Verdicts `json:"recomputed"`
	Disagreements []Disagreement `json:"disagreements"`
}

// ReplayAttempt rebuilds one attempt's frames and recomputes its verdicts.
func ReplayAttempt(suite agent.Suite, a agent.Attempt) (AttemptReplay, error) {
	p := "attempt " + a.Slug
	v, dis, err := judge(suite, a, p)
	if err != nil {
		return AttemptReplay{}, err
	}
	frames := []agent.Frame{}
	if r, ok := suite.(agent.Replayer); ok {
		if frames, err = r.Frames(a.Events); err != nil {
			return AttemptReplay{}, refuse(child(p, "events"), "attempt %q: rebuilding frames: %v", a.Slug, err)
		}
	}
	return AttemptReplay{Frames: frames, Recorded: a.Verdicts, Recomputed: v, Disagreements: nonNil(dis)}, nil
}

// nonNil keeps an empty list an empty JSON array.
func nonNil(d []Disagreement) []Disagreement {
	if d == nil {
		return []Disagreement{}
	}
	return d
}
