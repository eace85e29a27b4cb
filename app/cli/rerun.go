package cli

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/planner"
	"observatory/backend/store"
)

func newRerunCmd(env Env, g *globals) *cobra.Command {
	var attempts []string
	var taskFile string
	var noVideo bool
	cmd := &cobra.Command{
		Use:   "rerun RUN",
		Short: "Run a stored run's recorded actions again, as a scripted plan, with no model",
		Long: `Re-executes the actions each attempt of a stored run actually took (held and refused
proposals, and targets the model had to name again, left out) on the live site, as a scripted plan: a model's run is reproduced
without calling any model, and an outside agent's (run --agent) from the inputs observed in
its page, without the agent, so its run becomes a regression check. An action whose target no longer resolves to exactly one element
stops its attempt with the reason, as in any run. A run made from a task file needs the file
again (--task), for its environment and secrets.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(g, func(st *store.Store, dataDir string) error {
				run, err := st.Get(args[0])
				if err != nil {
					return err
				}
				src, err := rerunSource(run, taskFile)
				if err != nil {
					return err
				}
				plans := map[string]agent.Plan{}
				var slugs []string
				for _, a := range run.Attempts {
					if len(attempts) > 0 && !slices.Contains(attempts, a.Slug) {
						continue
					}
					if plans[a.Slug], err = planner.Rerun(a.Steps); err != nil {
						return fmt.Errorf("attempt %s: %w", safe(a.Slug), err)
					}
					slugs = append(slugs, a.Slug)
				}
				if len(slugs) == 0 {
					return fmt.Errorf("run %s has no attempt %v", safe(run.ID), attempts)
				}
				prep, err := app.Prepare(app.RunRequest{Task: src, Attempts: slugs,
					Planner: func(spec agent.AttemptSpec) agent.Planner { return planner.Scripted(plans[spec.Slug]) },
					Launch:  app.LaunchChromium(false, ""), MediaRoot: app.MediaRoot(dataDir),
					Video: !noVideo, Screenshots: true, Recorder: st, Emit: progressPrinter(env.Stderr)})
				if err != nil {
					return err
				}
				fmt.Fprintf(env.Stderr, "rerun %s of run %s: %d attempts, their recorded actions\n", prep.ID, safe(run.ID), len(slugs))
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
	return cmd
}

// rerunSource is the task to rerun run against: its lab's, or the task file given, which
// must be the run's task.
func rerunSource(run agent.Run, taskFile string) (app.TaskSource, error) {
	if len(run.Spec) == 0 {
		return app.LabTask(run.Task)
	}
	if taskFile == "" {
		return app.TaskSource{}, fmt.Errorf("run %s was made from a task file: give it with --task FILE", safe(run.ID))
	}
	src, err := app.LoadTaskFile(taskFile)
	if err != nil {
		return app.TaskSource{}, err
	}
	if name := src.Suite.Task().Name; name != run.Task {
		return app.TaskSource{}, fmt.Errorf("%s is task %q, but run %s is of task %q", taskFile, name, safe(run.ID), run.Task)
	}
	return src, nil
}
