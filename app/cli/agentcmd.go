package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/outside"
	"observatory/backend/taskfile"
)

// outsidePlanner is the planner of a run whose attempts an outside agent drives: argv, the
// command after --, or else the task file's own (agent.command, run in its folder), started
// for each attempt, its log kept in mediaDir; nil, nil when no agent drives the run. A task
// file's command runs only with --agent: a file from someone else starts no program by
// itself. It refuses what cannot go with an agent.
func outsidePlanner(f *runFlags, src app.TaskSource, args, argv []string, mediaDir string, fs *pflag.FlagSet) (func(agent.AttemptSpec) agent.Planner, error) {
	var own []string
	dir := ""
	if ts, ok := src.Suite.(taskfile.Suite); ok {
		own, dir = ts.Agent()
	}
	inherit := outside.Inherit{Only: f.agentEnvOnly || len(f.agentEnv) > 0, Names: f.agentEnv}
	switch {
	case !f.agent && inherit.Only:
		return nil, fmt.Errorf("--agent-env and --agent-env-only choose what an agent inherits: add --agent")
	case !f.agent && f.agentUser != "":
		return nil, fmt.Errorf("--agent-user is the user --agent's command runs as: add --agent")
	case !f.agent && len(argv) > 0:
		return nil, fmt.Errorf("a command after -- is an agent: add --agent")
	case !f.agent && len(own) > 0:
		return nil, fmt.Errorf("task %s runs its own agent, %q: run it with --agent, which agrees to start that program", safe(src.Suite.Task().Name), strings.Join(own, " "))
	case !f.agent:
		return nil, nil
	case len(argv) > 0:
		dir = "" // a command line's own command runs where it was typed
	case len(own) > 0:
		argv = own
	default:
		return nil, fmt.Errorf("--agent needs the agent's command after --, such as --agent -- node agent.js (or agent.command in the task file)")
	case fs.Changed("planner"):
		return nil, fmt.Errorf("--agent and --planner both choose who drives the browser: give one")
	case f.parallel > 1:
		return nil, fmt.Errorf("--agent runs one attempt at a time: the agent is handed the whole browser")
	}
	if err := inherit.Check(); err != nil {
		return nil, err
	}
	taskFile := ""
	if len(args) == 1 {
		if abs, err := filepath.Abs(args[0]); err == nil {
			taskFile = abs
		}
	}
	cmd := outside.Command{Argv: argv, Dir: dir, TimeLimit: f.planners.timeLimit, Intent: src.Suite.Task().Intent, TaskFile: taskFile, LogDir: mediaDir,
		Inherit: inherit, User: f.agentUser}
	return func(spec agent.AttemptSpec) agent.Planner { return outside.New(cmd, spec.Slug) }, nil
}
