package app

import (
	"observatory/backend/agent"
	"observatory/backend/planner/model"
	"observatory/backend/taskfile"
)

// taskJudges returns the askers of a task file's model judge signals, each asking the models
// its signal names (their keys read now, from the keyring or the environment); nil for a task
// with none.
func taskJudges(suite agent.Suite) func(signal string) agent.JudgeAsker {
	ts, ok := suite.(taskfile.Suite)
	if !ok || len(ts.Judges()) == 0 {
		return nil
	}
	askers := map[string]agent.JudgeAsker{}
	for _, j := range ts.Judges() {
		if mj := model.NewJudge(model.Config{Models: TaskModels(ts.JudgeModels(j.Signal))}); mj != nil {
			askers[j.Signal] = mj
		}
	}
	return func(signal string) agent.JudgeAsker { return askers[signal] }
}
