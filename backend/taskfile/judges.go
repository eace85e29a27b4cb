package taskfile

import (
	"slices"

	"observatory/backend/agent"
)

// Bounds of a judge signal.
const (
	// DefaultJudgeScreenshots is how many screenshots a judge is shown when its signal does
	// not say; MaxJudgeScreenshots the most it may ask for.
	DefaultJudgeScreenshots = 3
	MaxJudgeScreenshots     = 10
	// MaxRubric is the most bytes a judge's rubric may hold.
	MaxRubric = 4 << 10
)

// judge is one model judge signal: what it asks and the models it asks.
type judge struct {
	spec   agent.JudgeSpec
	models []ModelSpec
}

// judgeOf checks the judge signal id declares at path.
func judgeOf(id string, j *JudgeCheck, at string) (judge, error) {
	out := judge{spec: agent.JudgeSpec{Signal: id, Recipe: j.Recipe, Rubric: j.Rubric, Screenshots: j.Screenshots},
		models: slices.Clone(j.Models)}
	if out.spec.Recipe == "" {
		out.spec.Recipe = agent.RecipeLastScreenshots
	}
	if out.spec.Screenshots == 0 {
		out.spec.Screenshots = DefaultJudgeScreenshots
	}
	switch {
	case !slices.Contains(agent.Recipes, out.spec.Recipe):
		return judge{}, errAt(join(at, "recipe"), "want one of %v, got %q", agent.Recipes, j.Recipe)
	case len(j.Models) == 0:
		return judge{}, errAt(join(at, "models"), "name at least one model to ask")
	case j.Screenshots < 0 || j.Screenshots > MaxJudgeScreenshots:
		return judge{}, errAt(join(at, "screenshots"), "want 1 to %d (default %d)", MaxJudgeScreenshots, DefaultJudgeScreenshots)
	case len(j.Rubric) > MaxRubric:
		return judge{}, errAt(join(at, "rubric"), "longer than %d bytes", MaxRubric)
	}
	if err := checkModels(join(at, "models"), j.Models); err != nil {
		return judge{}, err
	}
	return out, nil
}

// Judges are the task's model judge signals, in its order: the runner asks each once an
// attempt has ended.
func (s *suite) Judges() []agent.JudgeSpec {
	var out []agent.JudgeSpec
	for _, sg := range s.signals {
		if sg.judge != nil {
			out = append(out, sg.judge.spec)
		}
	}
	return out
}

// JudgeModels are the models the judge signal with the given ID asks, in order; none for
// another signal.
func (s *suite) JudgeModels(signal string) []ModelSpec {
	for _, sg := range s.signals {
		if sg.id == signal && sg.judge != nil {
			return slices.Clone(sg.judge.models)
		}
	}
	return nil
}
