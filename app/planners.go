package app

import (
	"context"
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/planner/model"
	"observatory/backend/runner"
)

// ModelPlanner returns the planner of each attempt of task when a model plans: a fresh model
// planner per attempt under cfg, reporting its waits for a model through emit. The config is
// checked, and each model's key read from its environment variable, before any run starts.
func ModelPlanner(task agent.Task, cfg model.Config, emit func(runner.Progress)) (func(agent.AttemptSpec) agent.Planner, error) {
	if _, err := model.New(task, cfg); err != nil {
		return nil, fmt.Errorf("the model planner: %w", err)
	}
	return func(spec agent.AttemptSpec) agent.Planner {
		p, err := model.New(task, cfg)
		if err != nil {
			return failing{err}
		}
		p.Hooks.Wait = func(w model.Wait) {
			if emit == nil {
				return
			}
			msg := "a model answers again"
			if w.Waiting {
				msg = "waiting for a model: " + w.Reason
			}
			emit(runner.Progress{Kind: runner.ModelWait, Slug: spec.Slug, Waiting: w.Waiting, Message: msg})
		}
		return p
	}, nil
}

// failing is a planner that could not be made; its attempt ends with the reason.
type failing struct{ err error }

func (f failing) Next(context.Context, agent.Sample, []agent.Step) (agent.Proposal, error) {
	return agent.Proposal{}, f.err
}
