package runfile

import "observatory/backend/agent"

// Where a step's target was, and the near misses of a target that matched nothing, in a run
// file, mapped explicitly to and from the domain. Both are optional members of a step.

type boxV2 struct {
	X              float64 `json:"x"`
	Y              float64 `json:"y"`
	Width          float64 `json:"width"`
	Height         float64 `json:"height"`
	ViewportWidth  float64 `json:"viewport_width"`
	ViewportHeight float64 `json:"viewport_height"`
}

type candidateV2 struct {
	Role       string  `json:"role"`
	Name       string  `json:"name"`
	Similarity float64 `json:"similarity"`
	Box        boxV2   `json:"box"`
}

func fromBox(b agent.Box) boxV2 {
	return boxV2{X: b.X, Y: b.Y, Width: b.Width, Height: b.Height, ViewportWidth: b.ViewportWidth, ViewportHeight: b.ViewportHeight}
}

func (b boxV2) toDomain() agent.Box {
	return agent.Box{X: b.X, Y: b.Y, Width: b.Width, Height: b.Height, ViewportWidth: b.ViewportWidth, ViewportHeight: b.ViewportHeight}
}

func fromCandidate(c agent.Candidate) candidateV2 {
	return candidateV2{Role: c.Role, Name: c.Name, Similarity: c.Similarity, Box: fromBox(c.Box)}
}

func (c candidateV2) toDomain() agent.Candidate {
	return agent.Candidate{Role: c.Role, Name: c.Name, Similarity: c.Similarity, Box: c.Box.toDomain()}
}
