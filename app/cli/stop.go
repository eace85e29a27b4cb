package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/killswitch"
)

func newStopCmd(env Env, g *globals) *cobra.Command {
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "stop",
		Short: "Stop every run of the data folder at once, in every Observatory process",
		Long: `Pulls the kill switch: every observatory run, desktop window and serve using the same data
folder stops its runs at once, as its Stop button would. A commit in flight is ambiguous until
reconciled against the app's store; videos are finished and the runs recorded as cancelled.
It waits until each process has stopped its runs (or exited), at most --wait.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := dataDir(g)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), wait)
			defer cancel()
			res, err := killswitch.Pull(ctx, dir)
			fmt.Fprintf(env.Stdout, "stopped the runs of %d process(es); %d exited meanwhile\n", res.Stopped, res.Exited)
			return err
		},
	}
	cmd.Flags().DurationVar(&wait, "wait", 30*time.Second, "how long to wait for the processes to stop their runs")
	return cmd
}

// warnKillSwitch says when observatory stop cannot reach the services' runs.
func warnKillSwitch(g *globals, s *app.Services) {
	if err := s.KillSwitchErr(); err != nil {
		fmt.Fprintf(g.stderr, "warning: observatory stop cannot reach the runs here: %s\n", safe(err.Error()))
	}
}

// watchKillSwitch registers the process with the data folder's kill switch for the length of
// a run: pulling it (observatory stop) calls stop, which must return once the run has ended.
// It returns the function that unregisters.
func watchKillSwitch(g *globals, dataDir string, stop func()) func() {
	w, err := killswitch.Watch(dataDir, stop)
	if err != nil {
		fmt.Fprintf(g.stderr, "warning: observatory stop cannot reach this run: %s\n", safe(err.Error()))
		return func() {}
	}
	return func() { _ = w.Close() }
}
