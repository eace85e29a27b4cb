//go:build unix

package cli

import (
	"slices"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

// TestOutsideAgentOverCDP: with a browser of the user's own, given with --cdp, the agent is
// handed that endpoint and judged the same.
func TestOutsideAgentOverCDP(t *testing.T) {
	needAgents(t)
	cdp := browsertest.CDP(t)
	rows, _, _ := runAgent(t, t.TempDir(), "puppeteer-book.js", "", []string{"notice-nothing-saved"}, "--cdp", cdp.URL)
	if r := rows[0]; r.Gate || r.Terminal != agent.Failed || !slices.Contains(r.Wrong, agent.ClaimID) {
		t.Errorf("over --cdp: gate %v, %s, wrong %v: %s", r.Gate, r.Terminal, r.Wrong, r.Reason)
	}
}
