package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/pflag"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/outside"
)

// outsidePlanner is the planner of a run whose attempts an outside agent drives: argv, the
// command after --, started for each attempt, its log kept in mediaDir. It refuses what cannot go with it.
func outsidePlanner(f *runFlags, src app.TaskSource, args, argv []string, mediaDir string, fs *pflag.FlagSet) (func(agent.AttemptSpec) agent.Planner, error) {
	switch {
	case !f.agent:
		return nil, fmt.Errorf("a command after -- is an agent: add --agent")
	case len(argv) == 0:
		return nil, fmt.Errorf("--agent needs the agent's command after --, such as --agent -- node agent.js")
	case fs.Changed("planner"):
		return nil, fmt.Errorf("--agent and --planner both choose who drives the browser: give one")
	case f.parallel > 1:
		return nil, fmt.Errorf("--agent runs one attempt at a time: the agent is handed the whole browser")
	}
	taskFile := ""
	if len(args) == 1 {
		if abs, err := filepath.Abs(args[0]); err == nil {
			taskFile = abs
		}
	}
	cmd := outside.Command{Argv: argv, TimeLimit: f.planners.timeLimit, Intent: src.Suite.Task().Intent, TaskFile: taskFile, LogDir: mediaDir}
	return func(spec agent.AttemptSpec) agent.Planner { return outside.New(cmd, spec.Slug) }, nil
}
