package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/runfile"
)

func newMergeCmd(env Env) *cobra.Command {
	var out string
	var ci ciFlags
	cmd := &cobra.Command{
		Use:   "merge SHARD... -o FILE",
		Short: "Join the run files of one run's shards (run --shard K/N) into one run file",
		Long: `Verifies every shard's run file, refuses shards of different tasks or configurations and
attempts that appear twice, and writes one run file with the attempts in the task's order.
Import it, or open it in the desktop, like any other run file. Shards that record their index
(run --shard, --shard-index-env) must be every index of one total, run by one Observatory
version; the merged file records each shard's name, index and SHA-256.

It writes the same --report files as an unsharded run would, and its exit status is the
merged run's, as run's is: 0 when every attempt passes the gate, 2 when one does not, 1 when
the shards cannot be merged (docs/ci.md).`,
		Example: `  observatory run task.yaml --shard 1/2 --export shard1.json   # on one machine
  observatory run task.yaml --shard 2/2 --export shard2.json   # on another
  observatory merge shard1.json shard2.json -o run.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("name the merged file with -o FILE")
			}
			if err := ci.check(); err != nil {
				return err
			}
			shards := make([]runfile.Shard, 0, len(args))
			for _, path := range args {
				f, err := readRunFile(path)
				if err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				shards = append(shards, runfile.Shard{Name: filepath.Base(path), File: f, SHA256: runfile.Digest(data)})
			}
			recorded, err := runfile.CheckShards(shards)
			if err != nil {
				return err
			}
			run, err := runfile.Merge(app.Resolve, shards)
			if err != nil {
				return err
			}
			if err := app.WriteMergedRunFile(out, run, recorded); err != nil {
				return err
			}
			fmt.Fprintf(env.Stderr, "merged %d shard(s), %d attempts, into %s\n", len(shards), len(run.Attempts), safe(out))
			if err := ci.write(env, ci.reportOf([]agent.Run{run}, []string{out}, nil), false, htmlOf(run, "")); err != nil {
				return errors.Join(err, ci.gate([]agent.Run{run}))
			}
			return ci.gate([]agent.Run{run})
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the merged run file to write")
	ci.register(cmd.Flags(), false)
	return cmd
}
