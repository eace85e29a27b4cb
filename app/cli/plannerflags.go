package cli

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/planner/model"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
)

// plannerFlags choose who plans each attempt: the task's scripted plan, or a model.
type plannerFlags struct {
	planner    string
	models     []string
	baseURL    string
	keyEnv     string
	keyring    string
	priceIn    float64
	priceOut   float64
	persistent bool
	vision     bool
	timeLimit  time.Duration
	tokens     int64
	money      float64
}

func (p *plannerFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&p.planner, "planner", "", "who plans each attempt: script (the task's plan) or model; default script, or model when the task has no plan")
	fs.StringArrayVar(&p.models, "model", nil, "a model to plan with, and to review with where the task's safeguards name the model reviewer: provider:model (openai:gpt-4.1-mini, anthropic:claude-sonnet-4-5); repeatable, tried in order")
	fs.StringVar(&p.baseURL, "base-url", "", "the models' API base URL, for OpenAI-compatible servers (Ollama: http://127.0.0.1:11434/v1)")
	fs.StringVar(&p.keyEnv, "api-key-env", "", "the environment variable holding the models' API key (default OPENAI_API_KEY or ANTHROPIC_API_KEY; none for a --base-url server that needs none)")
	fs.StringVar(&p.keyring, "api-key-keyring", "", "the OS keyring entry (service observatory) holding the models' API key, in place of --api-key-env; Settings → Models stores one")
	fs.Float64Var(&p.priceIn, "price-in", 0, "the models' price in US dollars per million input tokens, which --money-budget counts")
	fs.Float64Var(&p.priceOut, "price-out", 0, "the models' price in US dollars per million output tokens, which --money-budget counts")
	fs.BoolVar(&p.persistent, "persistent", false, "a model planner may not finish: done is refused and it goes on until the time limit, a budget or Ctrl+C")
	fs.BoolVar(&p.vision, "vision", false, "show the model each observation's screenshot as well")
	fs.DurationVar(&p.timeLimit, "time-limit", 0, "how long a model planner may plan an attempt, or an --agent run (default 10m)")
	fs.Int64Var(&p.tokens, "token-budget", 0, "the most tokens a model planner may spend on an attempt; 0 for no limit")
	fs.Float64Var(&p.money, "money-budget", 0, "the most US dollars a model planner may spend on an attempt, at configured prices; 0 for no limit")
}

// plannerFor returns the RunRequest's planner for the task: nil for the task's own plan, or
// a model planner per attempt. The flags take precedence over what a task file says.
func (p *plannerFlags) plannerFor(suite agent.Suite, mediaDir string, emit func(runner.Progress)) (func(agent.AttemptSpec) agent.Planner, error) {
	task, plan := suite.Task(), suite.Plan()
	var declared taskfile.Planning
	if ts, ok := suite.(taskfile.Suite); ok {
		declared = ts.Planning()
	}
	kind := p.planner
	if kind == "" {
		kind = "script"
		if declared.UsesModel(len(plan) > 0) {
			kind = "model"
		}
	}
	switch kind {
	case "script":
		if len(p.models) > 0 && !reviewsByModel(suite) {
			return nil, fmt.Errorf("--model names a model, but --planner is script: add --planner model")
		}
		return nil, nil
	case "model":
	default:
		return nil, fmt.Errorf("--planner %q: want script or model", p.planner)
	}
	if len(p.models) == 0 && len(declared.Models) == 0 {
		return nil, fmt.Errorf("a model plans this run: name one with --model provider:model (openai:gpt-4.1-mini)")
	}
	if len(p.models) == 0 && (p.baseURL != "" || p.keyEnv != "" || p.keyring != "" || p.priceIn != 0 || p.priceOut != 0) {
		return nil, fmt.Errorf("--base-url, --api-key-env, --api-key-keyring, --price-in and --price-out describe the --model models: name them with --model (the task file's models carry their own)")
	}
	cfg := model.Config{Persistent: p.persistent || declared.Persistent, Vision: p.vision || declared.Vision, MediaDir: mediaDir,
		TimeLimitMS: int(p.timeLimit.Milliseconds()), TokenBudget: p.tokens, MoneyBudget: p.money}
	if cfg.TimeLimitMS == 0 {
		cfg.TimeLimitMS = declared.TimeLimitMS
	}
	models, err := p.modelFlags()
	if err != nil {
		return nil, err
	}
	cfg.Models = models
	if len(models) == 0 {
		cfg.Models = app.TaskModels(declared.Models)
	}
	return app.ModelPlanner(task, cfg, emit)
}

// modelFlags are the models --model names, with --base-url, the key's source and the prices applied.
func (p *plannerFlags) modelFlags() ([]model.ModelConfig, error) {
	var out []model.ModelConfig
	for _, spec := range p.models {
		m, err := model.ParseModel(spec)
		if err != nil {
			return nil, err
		}
		if p.baseURL != "" {
			m.BaseURL = p.baseURL
			m.APIKeyEnv = ""
		}
		switch {
		case p.keyring != "" && p.keyEnv != "":
			return nil, fmt.Errorf("--api-key-env and --api-key-keyring both say where the key is: give one")
		case p.keyring != "":
			m.APIKeyEnv, m.APIKeyKeyring = "", p.keyring
		case p.keyEnv != "":
			m.APIKeyEnv = p.keyEnv
		}
		m.PriceInPerMTok, m.PriceOutPerMTok = p.priceIn, p.priceOut
		out = append(out, m)
	}
	return out, nil
}

// reviewModels are the models that review the run's irreversible actions when its safeguards
// name the model reviewer: those --model names, else the task file's.
func (p *plannerFlags) reviewModels(src app.TaskSource) ([]model.ModelConfig, error) {
	models, err := p.modelFlags()
	if err != nil {
		return nil, err
	}
	return app.ReviewModels(src, models), nil
}

// reviewsByModel reports whether any attempt of suite has its irreversible actions reviewed
// by a model, which --model then names.
func reviewsByModel(suite agent.Suite) bool {
	for _, a := range suite.Attempts() {
		if g := a.Config.Safeguards; g != nil && g.Review != nil && g.Review.Reviewer == agent.ReviewerModel {
			return true
		}
	}
	return false
}
