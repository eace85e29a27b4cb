package mcpserver

import (
	"strings"
	"testing"

	"observatory/backend/agent"
)

const dialogOpen = `- generic [ref=e1]:
  - button "Reserve slot" [ref=e5] [cursor=pointer]
  - dialog [ref=e16]:
    - textbox "Reservation title" [ref=e20]: Spectral scan
    - combobox "Room" [ref=e22]:
      - option "North lab" [selected]
    - textbox [ref=e23]
    - button "Say \"hi\"" [ref=e24]
    - button "Save reservation" [ref=e26] [cursor=pointer]
`

// TestRefsAreRevalidatedBeforeActing: a ref becomes a role target with its exact name (an
// unnamed element, its ref) only while the page still shows it as the agent saw it; one the
// agent never saw, one gone or changed since, and one whose role and name several elements
// share are refused with "take a new snapshot".
func TestRefsAreRevalidatedBeforeActing(t *testing.T) {
	seen, _ := snapshotRefs(dialogOpen)
	if len(seen) != 8 || seen["e24"] != (element{"button", `Say "hi"`}) {
		t.Fatalf("refs read: %+v", seen)
	}
	ok := []struct {
		ref  string
		want agent.Target
	}{
		{"e26", agent.Target{Role: "button", Name: "Save reservation"}},
		{"e23", agent.Target{CSS: "aria-ref=e23"}},
		{"e24", agent.Target{Role: "button", Name: `Say "hi"`}},
	}
	for _, c := range ok {
		got, err := resolveRef(c.ref, seen, dialogOpen)
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.ref, got, err, c.want)
		}
	}
	closed := "- button \"Reserve slot\" [ref=e5]\n- status [ref=e30]: Reservation saved\n"
	renamed := strings.Replace(dialogOpen, `"Save reservation" [ref=e26]`, `"Saving…" [ref=e26]`, 1)
	twice := dialogOpen + "- button \"Save reservation\" [ref=e40]\n"
	for _, c := range []struct {
		name, ref, now, says string
	}{
		{"never seen", "e99", dialogOpen, "not in your latest snapshot"},
		{"gone", "e20", closed, "no longer on the page"},
		{"changed", "e26", renamed, `was button "Save reservation" in your snapshot and is button "Saving…" now`},
		{"ambiguous", "e26", twice, "matches 2 elements"},
	} {
		_, err := resolveRef(c.ref, seen, c.now)
		if err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "snapshot") {
			t.Errorf("%s: %v, want it refused saying %q and to take a new snapshot", c.name, err, c.says)
		}
	}
}
