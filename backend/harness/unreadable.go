package harness

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// textRoute is what a planner facing an unreadable region should look for instead.
const textRoute = "an accessible or text mode toggle (often placed off-screen: press it, it is pressed from the keyboard), keyboard controls, or a list or table view"

// Unreadable is what the harness tells the planner when the page after s has regions the
// accessibility snapshot cannot describe: the first time, which regions and the text routes
// to look for; on every later step that still shows some, a one-line reminder. "" when the
// page after s has none.
func Unreadable(history []agent.Step, s agent.Step) string {
	regions := s.After.Unreadable
	if len(regions) == 0 {
		return ""
	}
	names := make([]string, len(regions))
	for i, r := range regions {
		names[i] = fmt.Sprintf("%s (%d×%d at %d,%d)", r.What, r.W, r.H, r.X, r.Y)
	}
	for _, h := range history {
		if len(h.After.Unreadable) > 0 {
			return fmt.Sprintf("reminder: %s cannot be read as text; use a text route", regions[0].What)
		}
	}
	return fmt.Sprintf("this page has %d area(s) the accessibility snapshot cannot describe: %s. What they show cannot be read, and a click on them lands blind: look for %s",
		len(regions), strings.Join(names, ", "), textRoute)
}
