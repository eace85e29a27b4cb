package cli

import (
	"strings"
	"testing"

	"observatory/backend/planner/model/providertest"
)

// TestModelReviewerFromTheCommandLine runs the outbox lab's model-reviewed attempt with a
// model named on the command line, an OpenAI-compatible server (a scripted one: no provider
// is reachable here) answering through the real SDK client: its caution holds the send,
// nothing is sent; its clear lets the message go. Without a model the review is unavailable
// and the send is held (TestApprovalWithoutATerminal's lab default, and the table's row).
func TestModelReviewerFromTheCommandLine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	tests := []struct {
		verdict, terminal, reasonHas string
	}{
		{"caution", "rejected", "review (model) cautions against it: it shares the Q3 figures before they are published (openai:scripted)"},
		{"clear", "completed", "every completion condition holds"},
	}
	for _, tt := range tests {
		srv := providertest.New(t, providertest.OpenAI, script(providertest.OpenAI,
			[2]string{"verdict", `{"verdict":"` + tt.verdict + `","reason":"it shares the Q3 figures before they are published"}`})...)
		row, errOut := outboxRow(t, Env{}, "reviewer-unavailable", "--model", "openai:scripted", "--base-url", srv.BaseURL())
		if row["terminal"] != tt.terminal || !strings.Contains(row["reason"].(string), tt.reasonHas) {
			t.Errorf("a model's %s: %v (%v), want %s with %q\n%s", tt.verdict, row["terminal"], row["reason"], tt.terminal, tt.reasonHas, errOut)
		}
	}
	row, errOut := outboxRow(t, Env{}, "reviewer-unavailable")
	if row["terminal"] != "rejected" || !strings.Contains(row["reason"].(string), "review (model) is unavailable, and on_unavailable is hold") {
		t.Errorf("no model: %v (%v), want held as unavailable\n%s", row["terminal"], row["reason"], errOut)
	}
}
