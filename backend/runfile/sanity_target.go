package runfile

import (
	"unicode/utf8"

	"observatory/backend/agent"
)

// Limits on a step's target box and candidates.
const (
	// MaxBoxPixels bounds every coordinate and size of a box, in CSS pixels: no page this app
	// records is a million pixels across, and a viewer must be able to scale what it draws.
	MaxBoxPixels = 1_000_000
	// MaxCandidateName bounds a candidate's accessible name, in characters, as recorded.
	MaxCandidateName = 200
)

// saneTarget checks a step's target box, its approvals' target boxes and its candidates: at
// most agent.MaxCandidates, each with a role, a name within MaxCandidateName and a similarity
// between 0 and 1, and every box within MaxBoxPixels with a viewport to scale it by.
func saneTarget(p string, s agent.Step) *Error {
	if s.TargetBox != nil {
		if err := saneBox(child(p, "target_box"), *s.TargetBox); err != nil {
			return err
		}
	}
	for i, a := range s.Approvals {
		if b := a.Request.TargetBox; b != nil {
			if err := saneBox(child(child(index(child(p, "approvals"), i), "request"), "target_box"), *b); err != nil {
				return err
			}
		}
	}
	cp := child(p, "candidates")
	if len(s.Candidates) > agent.MaxCandidates {
		return refuse(cp, "%d candidates: a step records at most %d", len(s.Candidates), agent.MaxCandidates)
	}
	for i, c := range s.Candidates {
		ip := index(cp, i)
		switch {
		case c.Role == "":
			return refuse(child(ip, "role"), "empty role: a candidate is an element with a role")
		case utf8.RuneCountInString(c.Name) > MaxCandidateName:
			return refuse(child(ip, "name"), "%d characters: a candidate's name holds at most %d", utf8.RuneCountInString(c.Name), MaxCandidateName)
		case !(c.Similarity >= 0 && c.Similarity <= 1):
			return refuse(child(ip, "similarity"), "similarity %v: a name similarity lies between 0 and 1", c.Similarity)
		}
		if err := saneBox(child(ip, "box"), c.Box); err != nil {
			return err
		}
	}
	return nil
}

// saneSize refuses a recorded size no page or screenshot can have: a side of 0 or less, or
// past MaxBoxPixels. An absent size (nil) is fine: older files have none.
func saneSize(p string, s *agent.Size) *Error {
	if s == nil {
		return nil
	}
	if s.Width <= 0 || s.Width > MaxBoxPixels {
		return refuse(child(p, "width"), "%d: a width is more than 0 and at most 1000000 pixels", s.Width)
	}
	if s.Height <= 0 || s.Height > MaxBoxPixels {
		return refuse(child(p, "height"), "%d: a height is more than 0 and at most 1000000 pixels", s.Height)
	}
	return nil
}

// saneBox refuses a box no page can have: a coordinate or size past MaxBoxPixels, a negative
// size, or a viewport that is empty.
func saneBox(p string, b agent.Box) *Error {
	const m = MaxBoxPixels
	for _, n := range []struct {
		key  string
		v    float64
		ok   bool
		want string
	}{
		{"x", b.X, b.X >= -m && b.X <= m, "a position lies within ±1000000 CSS pixels"},
		{"y", b.Y, b.Y >= -m && b.Y <= m, "a position lies within ±1000000 CSS pixels"},
		{"width", b.Width, b.Width >= 0 && b.Width <= m, "a size lies between 0 and 1000000 CSS pixels"},
		{"height", b.Height, b.Height >= 0 && b.Height <= m, "a size lies between 0 and 1000000 CSS pixels"},
		{"viewport_width", b.ViewportWidth, b.ViewportWidth > 0 && b.ViewportWidth <= m, "a viewport is more than 0 and at most 1000000 CSS pixels across"},
		{"viewport_height", b.ViewportHeight, b.ViewportHeight > 0 && b.ViewportHeight <= m, "a viewport is more than 0 and at most 1000000 CSS pixels across"},
	} {
		if !n.ok {
			return refuse(child(p, n.key), "%v: %s", n.v, n.want)
		}
	}
	return nil
}
