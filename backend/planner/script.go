// Package planner holds the planners that propose an attempt's actions. Script follows a
// fixed plan; model planners live in their own packages.
package planner

import (
	"context"

	"observatory/backend/agent"
)

// Script proposes a fixed plan's actions in order, then the end. It never re-plans: when
// policy holds one of its actions, the attempt ends.
type Script struct {
	plan agent.Plan
}

var _ agent.Lookahead = (*Script)(nil)

// Scripted returns the planner that follows plan.
func Scripted(plan agent.Plan) *Script { return &Script{plan: plan} }

// Next proposes the plan's action after those in history, or the end.
func (s *Script) Next(ctx context.Context, _ agent.Sample, history []agent.Step) (agent.Proposal, error) {
	if err := ctx.Err(); err != nil {
		return agent.Proposal{}, err
	}
	p, _ := s.Upcoming(len(history))
	return p, nil
}

// Upcoming is the proposal after done steps: the plan's next action, or the end.
func (s *Script) Upcoming(done int) (agent.Proposal, bool) {
	if done >= len(s.plan) {
		return agent.Proposal{End: true}, true
	}
	return agent.Proposal{Action: s.plan[done]}, true
}
