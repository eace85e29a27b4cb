package runner

import (
	"context"

	"observatory/backend/agent"
)

// askJudges asks the suite's model judges about an ended attempt, once the oracle has
// answered, and returns their answers to record with the oracle's. A judge with no asker, or
// asked when the run's tokens or money are spent, answers that it was not asked: its signal
// is then "could not confirm". What asking cost is charged to the run's budget.
func (r *Runner) askJudges(ctx context.Context, a *agent.Attempt, mediaDir string, pot *agent.RunBudget) []agent.Answer {
	c, ok := r.Suite.(agent.Consulted)
	if !ok {
		return nil
	}
	var out []agent.Answer
	for _, spec := range c.Judges() {
		ans := agent.Answer{Condition: spec.Signal, Kind: agent.AnswerJudge}
		var asker agent.JudgeAsker
		if r.Judges != nil {
			asker = r.Judges(spec.Signal)
		}
		switch {
		case asker == nil:
			ans.Error = "no model was set up to ask"
		case pot.MayPlan() != nil:
			ans.Error = "not asked: " + pot.MayPlan().Error()
		default:
			ans = asker.AskJudge(ctx, agent.JudgeRequest{JudgeSpec: spec, Intent: a.Task.Intent, Steps: a.Steps, Claim: a.Claim, MediaDir: mediaDir})
			pot.Charge(agent.JudgeSpend([]agent.Answer{ans}))
		}
		out = append(out, ans)
	}
	return out
}
