package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/liveproc"
	"observatory/backend/runner"
	"observatory/backend/store"
	"observatory/backend/suitefile"
	"observatory/backend/taskfile"
)

// overrideFlags are the numbers and policies that override every attempt's own.
type overrideFlags struct {
	wait, selectors                            string
	latency, fixedWait, poll, deadline, budget int
	// limits and runLimits are NAME=VALUE budgets of every attempt and of the whole run.
	limits, runLimits []string
}

func (o *overrideFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.wait, "wait", "", "wait policy for every attempt: fixed or condition")
	fs.StringVar(&o.selectors, "selectors", "", "selector policy for every attempt: exact or alias")
	fs.IntVar(&o.latency, "latency", 0, "the lab's save latency in ms (its latency_ms parameter), for every attempt")
	fs.IntVar(&o.fixedWait, "fixed-wait", 0, "fixed wait in ms (with --wait fixed)")
	fs.IntVar(&o.poll, "poll", 0, "condition wait polling interval in ms")
	fs.IntVar(&o.deadline, "deadline", 0, "condition wait deadline in ms")
	fs.IntVar(&o.budget, "budget", 0, "action budget: the most actions an attempt may spend")
	names := strings.Join(agent.BudgetNames, ", ")
	fs.StringArrayVar(&o.limits, "limit", nil, "a budget of every attempt as NAME=VALUE (repeatable), in place of the task's; NAME is one of "+names)
	fs.StringArrayVar(&o.runLimits, "run-limit", nil, "a budget of the whole run as NAME=VALUE (repeatable): exhausting one stops the attempts left")
}

// budgets reads --limit and --run-limit: the attempts' budgets (nil when none is given) and
// the run's.
func (o *overrideFlags) budgets() (attempt *agent.Budgets, run agent.Budgets, err error) {
	parse := func(flag string, kvs []string) (agent.Budgets, error) {
		var b agent.Budgets
		for _, kv := range kvs {
			name, value, ok := strings.Cut(kv, "=")
			if !ok {
				return b, fmt.Errorf("--%s %q: want NAME=VALUE, such as commits=1", flag, kv)
			}
			if err := b.Set(strings.TrimSpace(name), strings.TrimSpace(value)); err != nil {
				return b, fmt.Errorf("--%s: %w", flag, err)
			}
		}
		return b, nil
	}
	a, err := parse("limit", o.limits)
	if err != nil {
		return nil, run, err
	}
	if !a.IsZero() {
		attempt = &a
	}
	run, err = parse("run-limit", o.runLimits)
	return attempt, run, err
}

// override turns the flags that were given into a ConfigOverride; flags left alone keep each
// attempt's own value.
func (o *overrideFlags) override(fs *pflag.FlagSet) agent.ConfigOverride {
	var ov agent.ConfigOverride
	ints := map[string]struct {
		dst **int
		v   int
	}{
		"fixed-wait": {&ov.FixedWaitMS, o.fixedWait},
		"poll":       {&ov.PollMS, o.poll}, "deadline": {&ov.DeadlineMS, o.deadline}, "budget": {&ov.Budget, o.budget},
	}
	for name, f := range ints {
		if fs.Changed(name) {
			v := f.v
			*f.dst = &v
		}
	}
	if fs.Changed("wait") {
		w := agent.WaitMode(o.wait)
		ov.Wait = &w
	}
	if fs.Changed("selectors") {
		s := agent.SelectorMode(o.selectors)
		ov.Selectors = &s
	}
	return ov
}

// params are the app parameters the flags set for every attempt.
func (o *overrideFlags) params(fs *pflag.FlagSet) map[string]int {
	if !fs.Changed("latency") {
		return nil
	}
	return map[string]int{"latency_ms": o.latency}
}

type runFlags struct {
	lab, export, browserPath string
	attempts                 []string
	labTaskFile              bool
	headed, json             bool
	media                    mediaFlags
	parallel, repeat         int
	shards                   shardFlags
	ci                       ciFlags
	endpoints                endpointFlags
	approve, harness         string
	overrides                overrideFlags
	planners                 plannerFlags
	trust                    trustFlags
	// confirm asks the user on the terminal to allow the environment variables the task
	// file reads that nothing allowed; nil off a terminal.
	confirm func([]taskfile.EnvVar) bool
	// agent runs the command after -- as each attempt's outside agent; agentUser is the OS
	// user it runs as, empty for this process's.
	agent     bool
	agentUser string
	// agentEnv names the only variables of Observatory's environment the agent inherits;
	// agentEnvOnly gives it only those even when none is named.
	agentEnv     []string
	agentEnvOnly bool
}

func newRunCmd(env Env, g *globals) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run [TASK-FILE | SUITE-FILE | DIR] [--agent -- COMMAND ARGS...]",
		Short: "Run a task's attempts in real Chromium and print the verdicts",
		Long: `Runs every attempt of a task file (or of a lab's built-in task, with --lab; or of the
task file a lab ships, with --lab NAME --task-file) headless in real Chromium, or those
named with --attempt; records each step in the run history, and prints the attempts table
with wrong verdicts marked. A suite file (observatory.suite/v1) or a folder of task files
runs each task in turn, a run each, and prints the estimates across them. With --repeat N
every attempt runs N times and the table is one row per attempt: its trials, completion rate
with a 95% interval, pass@k and pass^k, medians and cost per success, and whether it is
flaky (docs/suites.md). Progress goes to standard error; with --json standard output holds
only the JSON (with --repeat, an object of the trials' rows and the estimates).

Exit status: 0 when every attempt completed; 2 when any did not (failed, rejected,
exhausted, cancelled or ambiguous; everything is still recorded, printed and exported);
1 when the run could not be made; 3 when no attempt matched the selection (a shard past the
last attempt). --min-rate and --fail-on change what passes, and --shard-exit written lets a
shard exit 0 once its run file is written; --report writes JUnit, CTRF or GitHub reports
(docs/ci.md).

A task file reaches only its own folder, no environment variable and no link-local host
until you allow more (--allow-path, --allow-env, --allow-link-local, or the settings; on a
terminal, run asks for the variables nothing allowed): see docs/security.md.

With --agent, the command after -- is your own agent: for each attempt it is started with
the browser's DevTools endpoint in OBSERVATORY_CDP_URL (and OBSERVATORY_START_URL,
OBSERVATORY_INTENT, OBSERVATORY_ATTEMPT, OBSERVATORY_TASK_FILE, OBSERVATORY_CLAIM_FILE); its
inputs are observed in the page, the gate judges what it leaves, and its exit status or claim
is the signal "agent's claim". When the task's safeguards require approval, its pages'
POST, PUT, PATCH and DELETE requests wait at the network for --approve's answer; the agent
(and all it starts) can never answer them. The agent inherits Observatory's environment (less
the data folder), or with --agent-env NAME (and --agent-env-only) only the variables you name;
--agent-user runs it as another OS user. See docs/outside-agent.md and docs/security.md.`,
		Example: `  observatory run --lab booking
  observatory run backend/labs/booking/task.yaml
  observatory run --lab booking --task-file          # the same task file, built in: from any folder
  observatory run --lab booking --attempt fixed-wait-slow-save --latency 100
  observatory run --lab booking --json --export run.json
  observatory run backend/labs/booking/task.yaml --attempt saves-normally --agent -- node agent.js
  observatory run --lab booking --task-file --repeat 6 --parallel 4
  observatory run smoke.suite.yaml --repeat 5 --parallel 4`,
		Args: func(cmd *cobra.Command, args []string) error {
			if n := cmd.ArgsLenAtDash(); n >= 0 {
				args = args[:n]
			}
			return cobra.MaximumNArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runTask(cmd, env, g, f, args) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.lab, "lab", "booking", "the lab whose built-in task to run when no task file is given, one of "+fmt.Sprint(labs.Names()))
	fs.BoolVar(&f.labTaskFile, "task-file", false, "run the lab's own task file (backend/labs/LAB/task.yaml, built in; its gate reads the lab over HTTP) instead of its built-in task")
	fs.StringArrayVar(&f.attempts, "attempt", nil, "run only this attempt (repeatable); default all")
	fs.BoolVar(&f.headed, "headed", false, "show the browser window")
	fs.BoolVar(&f.json, "json", false, "print a JSON array, one object per attempt, and nothing else on standard output")
	fs.StringVar(&f.export, "export", "", "also write the run file here when the run ends (a .zip: a bundle with the media)")
	fs.StringVar(&f.browserPath, "browser", "", "the browser executable (default: $OBSERVATORY_CHROMIUM, else installed Chrome or Edge, else Chromium on PATH, else Playwright's Chromium)")
	f.shards.register(fs)
	f.ci.register(fs, true)
	f.endpoints.register(fs)
	fs.IntVar(&f.repeat, "repeat", 1, "run every attempt this many times, as trials (slug.t1, slug.t2, ...), each in a fresh context and copy of the app, and print each attempt's success rate with its 95% interval")
	fs.IntVar(&f.parallel, "parallel", 1, "how many attempts run at once, each in its own browser context and copy of the app")
	f.media.register(fs)
	fs.StringVar(&f.approve, "approve", "", "how irreversible actions that need approval (with --agent, its pages' requests held at the network) are answered: ask (this terminal, and the desktop or serve open on the data folder: the first answer counts), deny, or hold; by default ask where someone watches, else hold")
	fs.BoolVar(&f.agent, "agent", false, "run the command after -- as each attempt's agent, judged from outside (one attempt at a time)")
	fs.StringArrayVar(&f.agentEnv, "agent-env", nil, "with --agent, the agent inherits only this variable of Observatory's environment (a name, or a pattern with *; repeatable) besides its OBSERVATORY_* ones")
	fs.BoolVar(&f.agentEnvOnly, "agent-env-only", false, "with --agent, the agent inherits nothing of Observatory's environment but what --agent-env names")
	fs.StringVar(&f.agentUser, "agent-user", "", "run the agent as this OS user (needs root): it can neither read the data folder nor answer its own approvals")
	fs.StringVar(&f.harness, "harness", "on", "off runs the same plan without the harness (no holds, review or approval; ambiguous sends retried blindly), to show what it prevents")
	f.overrides.register(fs)
	f.planners.register(fs)
	f.trust.register(fs)
	return cmd
}

func runTask(cmd *cobra.Command, env Env, g *globals, f *runFlags, args []string) error {
	if f.repeat < 1 {
		return fmt.Errorf("--repeat %d: want 1 or more trials of each attempt", f.repeat)
	}
	if err := f.ci.check(); err != nil {
		return err
	}
	shard, err := f.shards.of()
	if err != nil {
		return err
	}
	if f.ci.shardExit == "written" && (shard == nil || f.export == "") {
		return fmt.Errorf("--shard-exit written is for a shard that exports its run file: give --shard (or --shard-index-env) and --export")
	}
	var agentArgv []string
	if n := cmd.ArgsLenAtDash(); n >= 0 {
		args, agentArgv = args[:n], args[n:]
	}
	f.confirm = envConfirm(cmd.Context(), env)
	if len(args) == 1 && suitefile.IsSuite(args[0]) {
		if f.agent || len(agentArgv) > 0 {
			return fmt.Errorf("--agent judges one task's agent; run it on each task file of the suite %s", args[0])
		}
		return runSuite(cmd, env, g, f, args[0])
	}
	src, err := taskSource(g, f, args)
	if err != nil {
		return err
	}
	if t, ok := src.Suite.(taskfile.Suite); ok && len(t.Outline().Env) > 0 {
		fmt.Fprintln(env.Stderr, "the task file reads environment variables:")
		for _, l := range envLines(t.Outline().Env) {
			fmt.Fprintf(env.Stderr, "  %s\n", safe(l))
		}
	}
	if err != nil {
		return err
	}
	attemptBudgets, runBudgets, err := f.overrides.budgets()
	if err != nil {
		return err
	}
	st, dataDir, err := openStore(g)
	if err != nil {
		return err
	}
	defer st.Close()
	run, err := execute(cmd, env, g, f, st, dataDir, taskRun{src: src, attempts: f.attempts, repeat: f.repeat,
		attemptBudgets: attemptBudgets, runBudgets: runBudgets, args: args, agentArgv: agentArgv})
	if err != nil {
		return err
	}
	// The run is recorded whether or not its file can be written: its result is printed
	// either way, and a failed export goes to standard error and the exit code.
	var exported error
	switch {
	case f.export != "" && shard != nil:
		exported = exportShard(env, app.NewTransfer(st, dataDir), run.ID, f.export, *shard)
	case f.export != "":
		exported = exportFile(env, app.NewTransfer(st, dataDir), run.ID, f.export, "", false)
	}
	switch {
	case f.repeat > 1:
		if err := printTrials(env, f.json, run); err != nil {
			return errors.Join(err, exported)
		}
	case f.json:
		if err := writeJSON(env.Stdout, jsonRows(run.Attempts)); err != nil {
			return errors.Join(err, exported)
		}
	default:
		printTable(env.Stdout, run.Attempts)
		fmt.Fprintln(env.Stdout)
		printReasons(env.Stdout, run.Attempts)
	}
	var files []string
	if f.export != "" && exported == nil {
		files = append(files, f.export)
	}
	reported := f.ci.write(env, f.ci.reportOf([]agent.Run{run}, files, mediaOf(dataDir, run.ID)), f.json, htmlOf(run, mediaDir(dataDir, run.ID)))
	if run.Status == agent.RunCancelled {
		return errors.Join(fmt.Errorf("run %s was cancelled", run.ID), exported, reported)
	}
	verdict := f.ci.gate([]agent.Run{run})
	if exported != nil || reported != nil {
		return errors.Join(exported, reported, verdict)
	}
	if f.ci.shardExit == "written" && verdict != nil {
		fmt.Fprintf(env.Stderr, "%s; the shard's run file is written (--shard-exit written): the merge owns the exit status\n", verdict)
		return nil
	}
	return verdict
}

// taskRun is one task's run as the flags, or a suite, ask for it.
type taskRun struct {
	src            app.TaskSource
	attempts       []string
	repeat         int
	attemptBudgets *agent.Budgets
	runBudgets     agent.Budgets
	// suiteRun is the suite run the run is one task of; empty for none.
	suiteRun string
	// args are the command line's task file, if it named one, and agentArgv the outside
	// agent's command after --, if any.
	args, agentArgv []string
}

// execute prepares and runs one task's attempts into st, as the flags say, stopped by the
// kill switch; the run is returned however it ended.
func execute(cmd *cobra.Command, env Env, g *globals, f *runFlags, st *store.Store, dataDir string, tr taskRun) (agent.Run, error) {
	src := tr.src
	id := runner.NewRunID(time.Now())
	command := "observatory run"
	if f.agent || len(tr.agentArgv) > 0 {
		command = "observatory run --agent"
	}
	host := offer(env.Stderr, dataDir, command, id, src.Suite.Task().Name)
	defer host.Close()
	if f.agent {
		// what the agent starts and leaves behind stays a child of this process, so the live
		// channel still knows it for the agent's (see liveproc.agentSide)
		undo, err := liveproc.BecomeSubreaper()
		if err != nil {
			fmt.Fprintf(env.Stderr, "the agent's orphans cannot be kept as this process's children: %s\n", safe(err.Error()))
		}
		defer undo()
	}
	approver, err := approverFor(f.approve, env, host)
	if err != nil {
		return agent.Run{}, err
	}
	override := f.overrides.override(cmd.Flags())
	override.Budgets = tr.attemptBudgets
	if f.harness != "on" && f.harness != "off" {
		return agent.Run{}, fmt.Errorf("--harness %q: want on or off", f.harness)
	}
	shard, err := f.shards.of()
	if err != nil {
		return agent.Run{}, err
	}
	emit := offered(progressPrinter(env.Stderr), host)
	launch := app.LaunchChromium(f.headed, f.browserPath)
	plan, err := outsidePlanner(f, src, tr.args, tr.agentArgv, filepath.Join(app.MediaRoot(dataDir), id), cmd.Flags())
	if err != nil {
		return agent.Run{}, err
	}
	if plan != nil {
		launch = app.LaunchHandedOver(f.headed, f.browserPath)
	} else if plan, err = f.planners.plannerFor(src.Suite, filepath.Join(app.MediaRoot(dataDir), id), emit); err != nil {
		return agent.Run{}, err
	}
	reviewModels, err := f.planners.reviewModels(src)
	if err != nil {
		return agent.Run{}, err
	}
	prep, err := app.Prepare(app.RunRequest{ID: id, Task: src, Attempts: tr.attempts, Repeat: tr.repeat, SuiteRun: tr.suiteRun, Planner: plan, ReviewModels: reviewModels,
		Override: override, Budgets: tr.runBudgets, Params: f.overrides.params(cmd.Flags()), Parallel: f.parallel, Shard: shard,
		Remote: f.endpoints.remote(), PerEndpoint: f.endpoints.perEndpoint, LabHost: f.endpoints.labHost,
		Launch: launch, MediaRoot: app.MediaRoot(dataDir),
		Media: f.media.media(),
		Naive: f.harness == "off", Approver: approver,
		Recorder: st, Emit: emit, Export: f.export})
	if err != nil {
		return agent.Run{}, err
	}
	fmt.Fprintf(env.Stderr, "run %s: %d attempts of task %s (%s)\n", prep.ID, len(prep.Specs), safe(src.Suite.Task().Name), safe(slugList(prep.Specs)))
	if f.media.evidence == string(agent.EvidenceFirstTrial) && tr.repeat > 1 {
		later := "trial 2"
		if tr.repeat > 2 {
			later = fmt.Sprintf("trials 2 to %d", tr.repeat)
		}
		fmt.Fprintf(env.Stderr, "evidence: full for each attempt's first trial, lean for %s (--evidence first-trial)\n", later)
	}
	if prep.LabHost != "" {
		fmt.Fprintf(env.Stderr, "the lab listens on %s: each attempt's browser is sent to http://%s/\n", safe(prep.LabHost), safe(net.JoinHostPort(prep.LabHost, "PORT")))
	}
	ctx, cancel := context.WithCancelCause(cmd.Context())
	defer cancel(nil)
	ended := make(chan struct{})
	unwatch := watchKillSwitch(g, dataDir, func() {
		cancel(agent.ErrStopped)
		<-ended
	})
	run, err := prep.Runner.Run(ctx, prep.ID, prep.Options)
	close(ended)
	unwatch()
	return run, err
}

// taskSource is the task file named in args, or else the lab's own task file (--task-file)
// or its built-in task.
func taskSource(g *globals, f *runFlags, args []string) (app.TaskSource, error) {
	switch {
	case len(args) == 1 && f.labTaskFile:
		return app.TaskSource{}, fmt.Errorf("--task-file runs the lab's own task file; give it or %s, not both", args[0])
	case len(args) == 1:
		trust, err := f.trust.trust(g)
		if err != nil {
			return app.TaskSource{}, err
		}
		return app.LoadTaskFile(args[0], taskfile.Options{Trust: trust, Confirm: f.confirm})
	case f.labTaskFile:
		return app.LabTaskFile(f.lab)
	}
	return app.LabTask(f.lab)
}

// progressPrinter reports a run's progress, one line per attempt, on w.
func progressPrinter(w io.Writer) func(runner.Progress) {
	return func(p runner.Progress) {
		switch p.Kind {
		case runner.AttemptStarted:
			if p.Total == 0 { // an agent's session: no total is known
				fmt.Fprintf(w, "[%d] %s ", p.Index, safe(p.Slug))
			} else {
				fmt.Fprintf(w, "[%d/%d] %s ", p.Index, p.Total, safe(p.Slug))
			}
		case runner.StepDone:
			mark := "."
			if p.Step.Error != "" {
				mark = "x"
			}
			fmt.Fprint(w, mark)
		case runner.AttemptFinished:
			fmt.Fprintf(w, " %s\n", safe(p.Attempt.Terminal))
		case runner.Error:
			fmt.Fprintf(w, "\nerror: %s\n", safe(p.Message))
		case runner.ModelWait:
			fmt.Fprintf(w, "\n%s: %s\n", safe(p.Slug), safe(p.Message))
		}
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
