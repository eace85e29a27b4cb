package taskfile

import (
	"strings"
	"testing"

	"observatory/backend/agent"
)

// budgetTask is a scripted booking task with the given budgets section.
func budgetTask(budgets string) string {
	return plannerTask("plan:\n  - {description: Verify, action: verify}\n" + budgets)
}

func TestBudgetsSection(t *testing.T) {
	s, err := Parse("budgets.yaml", []byte(budgetTask(`budgets:
  attempt: {commits: 1, wall_clock_ms: 30000, tokens: 5000, money_usd: 0.25}
  run: {commits: 3, navigations: 4}`)), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := agent.Budgets{Commits: 1, WallClockMS: 30000, Tokens: 5000, MoneyUSD: 0.25}
	for _, a := range s.Attempts() {
		if a.Config.Budgets == nil || *a.Config.Budgets != want {
			t.Errorf("attempt %s budgets %+v, want %+v", a.Slug, a.Config.Budgets, want)
		}
	}
	rb, ok := s.(agent.RunBounded)
	if !ok || rb.RunBudgets() != (agent.Budgets{Commits: 3, Navigations: 4}) {
		t.Errorf("run budgets %+v, want commits 3 and navigations 4", rb)
	}
	// The spec a run file carries keeps them, so a rebuilt suite has them too.
	if !strings.Contains(string(s.Spec()), `"budgets":{"attempt":{`) {
		t.Errorf("the spec leaves the budgets out: %s", s.Spec())
	}

	for budgets, says := range map[string]string{
		"budgets:\n  attempt: {commits: -1}":  "budgets.attempt: budget commits is -1",
		"budgets:\n  run: {money_usd: -0.5}":  "budgets.run: budget money_usd",
		"budgets:\n  attempt: {comits: 1}":    "comits",
		"budgets:\n  per_attempt: {steps: 1}": "per_attempt",
	} {
		if _, err := Parse("bad.yaml", []byte(budgetTask(budgets)), "", Options{}); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: error %v, want one saying %q", budgets, err, says)
		}
	}
}
