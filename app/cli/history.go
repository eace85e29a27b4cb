package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"observatory/backend/store"
)

func newRunsCmd(env Env, g *globals) *cobra.Command {
	var asJSON, prune bool
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List the run history, newest first",
		Long: `Lists the run history, newest first. With --prune it first deletes the runs past the
retention setting (Settings → Retention: keep the last N runs, runs newer than D days), as
the desktop and serve do when they start; a run still being written is kept.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if prune {
				if err := withStore(g, func(st *store.Store, dataDir string) error { return pruneStore(env.Stderr, st, dataDir) }); err != nil {
					return err
				}
			}
			return withReader(g, func(st *store.Store, _ string) error {
				runs, err := st.List()
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(env.Stdout, runs)
				}
				if len(runs) == 0 {
					fmt.Fprintln(env.Stdout, "no runs yet: `observatory run --lab booking` makes one")
					return nil
				}
				tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "RUN\tTASK\tCREATED\tSTATUS\tATTEMPTS\tCOMPLETED\tWRONG ATTEMPTS\tSOURCE")
				for _, r := range runs {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", safe(r.ID), safe(r.Task), r.Created.Local().Format("2006-01-02 15:04:05"),
						safe(r.Status), r.Attempts, r.Completed, r.Wrong, safe(r.Source))
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&prune, "prune", false, "first delete the runs past the retention setting")
	return cmd
}

func newShowCmd(env Env, g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show RUN",
		Short: "Print one run: its attempts table and why each attempt ended as it did",
		Long:  "Prints one stored run. RUN is a run id or a unique prefix of one (see `observatory runs`).",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withReader(g, func(st *store.Store, _ string) error {
				run, err := st.Get(args[0])
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(env.Stdout, run)
				}
				fmt.Fprintf(env.Stdout, "run %s of task %s, %s, %s (%s)\n\n", safe(run.ID), safe(run.Task), run.Created.Local().Format("2006-01-02 15:04:05"),
					safe(run.Status), safe(run.Source))
				if run.LabHost != "" {
					fmt.Fprintf(env.Stdout, "its lab listened on %s\n\n", safe(run.LabHost))
				}
				printTable(env.Stdout, run.Attempts)
				fmt.Fprintln(env.Stdout)
				printReasons(env.Stdout, run.Attempts)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole run as JSON")
	return cmd
}
