package runfile

import "observatory/backend/agent"

// AttemptReplay is one attempt rebuilt from its events, as the UI's replay view shows it.
type AttemptReplay struct {
	Frames        []agent.Frame  `json:"frames"`
	Recorded      agent.Verdicts `json:"recorded"`
	Recomputed    agent.Verdicts `json:"recomputed"`
	Disagreements []Disagreement `json:"disagreements"`
}

// ReplayAttempt rebuilds one attempt's frames and recomputes its verdicts.
func ReplayAttempt(lab agent.Lab, a agent.Attempt) (AttemptReplay, error) {
	p := "attempt " + a.Slug
	v, dis, err := judge(lab, a, p)
	if err != nil {
		return AttemptReplay{}, err
	}
	frames, err := lab.Frames(lab.Task(), a.Events)
	if err != nil {
		return AttemptReplay{}, refuse(child(p, "events"), "attempt %q: rebuilding frames: %v", a.Slug, err)
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
