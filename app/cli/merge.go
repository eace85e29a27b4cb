package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/runfile"
)

func newMergeCmd(env Env) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge SHARD... -o FILE",
		Short: "Join the run files of one run's shards (run --shard K/N) into one run file",
		Long: `Verifies every shard's run file, refuses shards of different tasks or configurations and
attempts that appear twice, and writes one run file with the attempts in the task's order.
Import it, or open it in the desktop, like any other run file.`,
		Example: `  observatory run task.yaml --shard 1/2 --export shard1.json   # on one machine
  observatory run task.yaml --shard 2/2 --export shard2.json   # on another
  observatory merge shard1.json shard2.json -o run.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("name the merged file with -o FILE")
			}
			shards := make([]runfile.Shard, 0, len(args))
			for _, path := range args {
				f, err := readRunFile(path)
				if err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				shards = append(shards, runfile.Shard{Name: filepath.Base(path), File: f})
			}
			run, err := runfile.Merge(app.Resolve, shards)
			if err != nil {
				return err
			}
			if err := app.WriteRunFile(out, run); err != nil {
				return err
			}
			fmt.Fprintf(env.Stderr, "merged %d shard(s), %d attempts, into %s\n", len(shards), len(run.Attempts), safe(out))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the merged run file to write")
	return cmd
}
