package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/runner"
	"observatory/backend/store"
	"observatory/backend/taskfile"
)

func newRerunCmd(env Env, g *globals) *cobra.Command {
	var attempts []string
	var taskFile, approve string
	var noVideo, yes bool
	var trust trustFlags
	cmd := &cobra.Command{
		Use:   "rerun RUN",
		Short: "Run a stored run's recorded actions again, as a scripted plan, with no model",
		Long: `Re-executes the actions each attempt of a stored run actually took (held and refused
proposals, and targets the model had to name again, left out) on the live site, as a scripted plan: a model's run is reproduced
without calling any model, and an outside agent's (run --agent) from the inputs observed in
its page, without the agent, so its run becomes a regression check. An action whose target no longer resolves to exactly one element
stops its attempt with the reason, as in any run. A run made from a task file needs the file
again (--task), for its environment and secrets.

The steps to be taken are listed first, each with the origin it acts on. An imported run's
steps are a stranger's: they run only once you say yes on the terminal, or with --yes. The
harness decides every step as in a live run: irreversible actions are held, reviewed or put
to you for approval (--approve) as the task's safeguards say.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			term := stdinTerminal(env)
			return withStore(g, func(st *store.Store, dataDir string) error {
				run, err := st.Get(args[0])
				if err != nil {
					return err
				}
				allowed, err := trust.trust(g)
				if err != nil {
					return err
				}
				src, err := rerunSource(run, taskFile, allowed)
				if err != nil {
					return err
				}
				plan, err := app.PlanRerun(run, attempts)
				if err != nil {
					return errors.New(safe(err.Error()))
				}
				fmt.Fprint(env.Stderr, rerunListing(plan))
				id := runner.NewRunID(time.Now())
				host := offer(env.Stderr, dataDir, "observatory rerun", id, src.Suite.Task().Name)
				defer host.Close()
				approver, err := approverOn(approve, term, windowsOf(host))
				if err != nil {
					return err
				}
				prep, err := plan.Prepare(app.RunRequest{ID: id, Task: src, Approver: approver,
					Launch: app.LaunchChromium(false, ""), MediaRoot: app.MediaRoot(dataDir),
					Media: agent.Media{Video: !noVideo, Screenshots: true}, Recorder: st, Emit: offered(progressPrinter(env.Stderr), host)},
					rerunConsent(cmd.Context(), yes, term))
				if errors.Is(err, app.ErrRerunRefused) {
					return fmt.Errorf("run %s was imported from %s, so its steps are not yours: %w; read them above, then answer yes on a terminal or give --yes",
						safe(run.ID), safe(run.Source), err)
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(env.Stderr, "rerun %s of run %s: %d attempts, their recorded actions\n", prep.ID, safe(run.ID), len(plan.Slugs))
				again, err := prep.Runner.Run(cmd.Context(), prep.ID, prep.Options)
				if err != nil {
					return err
				}
				printTable(env.Stdout, again.Attempts)
				fmt.Fprintln(env.Stdout)
				printReasons(env.Stdout, again.Attempts)
				return nil
			})
		},
	}
	cmd.Flags().StringArrayVar(&attempts, "attempt", nil, "rerun only this attempt (repeatable); default all")
	cmd.Flags().StringVar(&taskFile, "task", "", "the task file the run was made from, for a run of a task file")
	cmd.Flags().BoolVar(&noVideo, "no-video", false, "do not record a video of each attempt")
	trust.register(cmd.Flags())
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "run an imported run's steps without asking (read the listing first)")
	cmd.Flags().StringVar(&approve, "approve", "", "how irreversible actions that need approval are answered: ask (this terminal, and the desktop or serve open on the data folder: the first answer counts), deny, or hold; by default ask where someone watches, else hold")
	return cmd
}

// rerunConsent is the user's answer to a rerun that needs it: yes under --yes, the
// terminal's answer when standard input is one, and otherwise none, which is a no.
func rerunConsent(ctx context.Context, yes bool, term *terminal) func(app.Rerun) (bool, error) {
	switch {
	case yes:
		return func(app.Rerun) (bool, error) { return true, nil }
	case term == nil:
		return nil
	}
	return func(r app.Rerun) (bool, error) {
		return term.confirm(ctx, "", fmt.Sprintf("Run these %d steps of a run imported from %s?", len(r.Steps), safe(r.Run.Source)))
	}
}

// rerunListing lists the steps a rerun takes and the origins they act on. Everything in it
// but the labels comes from the stored run, a stranger's file perhaps, so every value is
// escaped for the terminal.
func rerunListing(r app.Rerun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Rerun of run %s (%s) takes %d steps:\n", safe(r.Run.ID), safe(r.Run.Source), len(r.Steps))
	for _, s := range r.Steps {
		note := ""
		if s.Contract == agent.ContractIrreversible {
			note = "  [irreversible]"
		}
		fmt.Fprintf(&b, "  %s step %d: %s on %s%s\n", safe(s.Attempt), s.Step, safe(s.Action.Description), safe(s.Origin), note)
		if s.Action.Kind == agent.ActNavigate {
			fmt.Fprintf(&b, "      loads %s\n", safe(s.Action.Value))
		}
	}
	fmt.Fprintf(&b, "Origins: %s\n", safe(strings.Join(r.Origins(), ", ")))
	return b.String()
}

// rerunSource is the task to rerun run against: its lab's, or the task file given, which
// must be the run's task.
func rerunSource(run agent.Run, taskFile string, trust taskfile.Trust) (app.TaskSource, error) {
	if len(run.Spec) == 0 {
		return app.LabTask(run.Task)
	}
	if taskFile == "" {
		return app.TaskSource{}, fmt.Errorf("run %s was made from a task file: give it with --task FILE", safe(run.ID))
	}
	src, err := app.LoadTaskFile(taskFile, taskfile.Options{Trust: trust})
	if err != nil {
		return app.TaskSource{}, err
	}
	if name := src.Suite.Task().Name; name != run.Task {
		return app.TaskSource{}, fmt.Errorf("%s is task %q, but run %s is of task %q", taskFile, name, safe(run.ID), run.Task)
	}
	return src, nil
}
