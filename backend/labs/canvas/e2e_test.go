package canvas_test

import (
	"strings"
	"testing"

	"observatory/backend/labs/canvas"
	"observatory/backend/labs/internal/labtest"
)

// lab is the canvas lab as its end-to-end test runs it.
var lab = labtest.Lab{Suite: canvas.New(), Rows: len(canvas.Table), Check: canvas.CheckTable}

// TestCanvasTableInChromium runs every attempt twice in real Chromium against the real board,
// with the harness off (the naive column) and on, and checks every cell of the table. It also
// checks how each row came about: the blind click landed on an empty square, the first
// harnessed step named the canvas and the text routes and later steps only reminded, and the
// naive steps said nothing.
func TestCanvasTableInChromium(t *testing.T) {
	naive, harnessed := labtest.Both(t, lab)
	for i, a := range harnessed.Attempts {
		n := naive.Attempts[i]
		t.Logf("%s: naive %s (%s), harnessed %s (%s)", a.Slug, n.Terminal, n.Reason, a.Terminal, a.Reason)
		for _, s := range n.Steps {
			if s.Guidance != "" {
				t.Errorf("%s: naive step %d has guidance %q; the naive column has no harness", n.Slug, s.Index+1, s.Guidance)
			}
		}
		first := a.Steps[0]
		if !strings.Contains(first.Guidance, "canvas#board") || !strings.Contains(first.Guidance, "accessible or text mode") {
			t.Errorf("%s: first step's guidance %q, want the board flagged and a text route suggested", a.Slug, first.Guidance)
		}
		for _, s := range a.Steps[1:] {
			if !strings.HasPrefix(s.Guidance, "reminder: canvas#board") {
				t.Errorf("%s: step %d guidance %q, want a one-line reminder", a.Slug, s.Index+1, s.Guidance)
			}
		}
		if a.Slug == "clicks-the-board" {
			s, err := canvas.Rebuild(a.Events)
			if err != nil || len(s.Clicks) != 1 || s.Pieces[s.Clicks[0]] != "" {
				t.Errorf("the blind click: clicks %v (%v), want one click on an empty square", s.Clicks, err)
			}
		}
	}
}
