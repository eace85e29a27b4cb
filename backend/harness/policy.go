package harness

import (
	"context"

	"observatory/backend/agent"
)

// Policy is the harness as the executor's agent.Policy: it classifies and admits each
// proposal with Admit. It never fails to decide.
type Policy struct{}

var _ agent.Policy = Policy{}

// Decide admits req's action against its grounding, the fresh observation and the budget.
func (Policy) Decide(_ context.Context, req agent.PolicyRequest) (agent.Decision, error) {
	return Admit(req.Action, req.Grounding, req.Fresh, req.Spent, req.Budget), nil
}
