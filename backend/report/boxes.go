package report

import (
	"fmt"
	"math"

	"observatory/backend/agent"
)

// overlay is one box drawn over a screenshot, as percentages of the screenshot's size, so
// that it stays on its element however large the browser shows the image; no script draws it.
type overlay struct {
	Left, Top, Width, Height float64
	// Candidate marks a near miss's box (dashed, labelled); otherwise it is the target's.
	Candidate bool
	Label     string
}

// overlays are the boxes a step's before screenshot carries: the acted-on element's, and the
// candidates of a target that matched nothing, numbered as the step lists them.
func overlays(s agent.Step) []overlay {
	var out []overlay
	if s.TargetBox != nil {
		out = append(out, boxOverlay(*s.TargetBox, false, "target"))
	}
	for i, c := range s.Candidates {
		out = append(out, boxOverlay(c.Box, true, fmt.Sprintf("%d · %s \"%s\"", i+1, c.Role, c.Name)))
	}
	return out
}

// nearest lists a miss's candidates in words, in the order their boxes are numbered.
func nearest(s agent.Step) []string {
	out := make([]string, len(s.Candidates))
	for i, c := range s.Candidates {
		out[i] = c.String()
	}
	return out
}

// boxOverlay places b on a screenshot of its viewport.
func boxOverlay(b agent.Box, candidate bool, label string) overlay {
	pct := func(v, of float64) float64 { return math.Round(v/of*100_000) / 1000 }
	return overlay{Left: pct(b.X, b.ViewportWidth), Top: pct(b.Y, b.ViewportHeight),
		Width: pct(b.Width, b.ViewportWidth), Height: pct(b.Height, b.ViewportHeight), Candidate: candidate, Label: label}
}
