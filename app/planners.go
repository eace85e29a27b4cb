package app

import (
	"context"
	"fmt"

	"observatory/app/apierror"
	"observatory/backend/agent"
	"observatory/backend/planner/model"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
)

// ModelPlanner returns the planner of each attempt of task when a model plans: a fresh model
// planner per attempt under cfg, reporting its waits for a model through emit. The config is
// checked, and each model's key read from its keyring entry or environment variable, before
// any run starts.
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

// TaskModels are the models a task file names, as the model planner takes them.
func TaskModels(specs []taskfile.ModelSpec) []model.ModelConfig {
	out := make([]model.ModelConfig, len(specs))
	for i, m := range specs {
		out[i] = model.ModelConfig{Provider: m.Provider, Model: m.Model, BaseURL: m.BaseURL, APIKeyEnv: m.APIKeyEnv,
			APIKeyKeyring: m.APIKeyKeyring, PriceInPerMTok: m.PriceInPerMTok, PriceOutPerMTok: m.PriceOutPerMTok}
	}
	return out
}

// ReviewModels are the models that review a run's irreversible actions when its safeguards
// name the model reviewer: the ones given (the settings', or the command line's), else those
// the task file names for its planner.
func ReviewModels(src TaskSource, given []model.ModelConfig) []model.ModelConfig {
	if len(given) > 0 {
		return given
	}
	if ts, ok := src.Suite.(taskfile.Suite); ok {
		return TaskModels(ts.Planning().Models)
	}
	return nil
}

// failing is a planner that could not be made; its attempt ends with the reason.
type failing struct{ err error }

func (f failing) Next(context.Context, agent.Sample, []agent.Step) (agent.Proposal, error) {
	return agent.Proposal{}, f.err
}

// ErrNoModel is returned when a model should plan a run and none is configured.
var ErrNoModel = apierror.New(apierror.Unavailable, "a model plans this run, but no model is configured: add one under Settings → Models")

// windowPlanner returns the planner of a run started from the window: nil for the task's
// own plan, or a model planner when the settings choose one or the task needs one (it has
// no plan, or its file says planner: model). The settings' models come first; a task file's
// own models are used when the settings have none. Every model-wait event carries runID.
func windowPlanner(src TaskSource, set UserSettings, runID, mediaDir string, emit func(runner.Progress)) (func(agent.AttemptSpec) agent.Planner, error) {
	task, plan := src.Suite.Task(), src.Suite.Plan()
	// A lab's task always has its script; a task file's has one when its plan has steps.
	declared, hasPlan := taskfile.Planning{}, true
	if ts, ok := src.Suite.(taskfile.Suite); ok {
		declared, hasPlan = ts.Planning(), len(plan) > 0
	}
	if set.Planner != PlannerModel && !declared.UsesModel(hasPlan) {
		return nil, nil
	}
	cfg := model.Config{Persistent: declared.Persistent, Vision: declared.Vision, MediaDir: mediaDir, TimeLimitMS: declared.TimeLimitMS}
	for _, m := range set.Models {
		if err := CheckModel(m); err != nil {
			return nil, err
		}
		cfg.Models = append(cfg.Models, m)
	}
	if len(cfg.Models) == 0 {
		cfg.Models = TaskModels(declared.Models)
	}
	if len(cfg.Models) == 0 {
		return nil, ErrNoModel
	}
	return ModelPlanner(task, cfg, func(p runner.Progress) {
		p.RunID = runID
		if emit != nil {
			emit(p)
		}
	})
}
