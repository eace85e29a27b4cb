package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/runfile"
)

func newMergeCmd(env Env, g *globals) *cobra.Command {
	var out, key string
	var sign bool
	cmd := &cobra.Command{
		Use:   "merge SHARD... -o FILE",
		Short: "Join the run files of one run's shards (run --shard K/N) into one run file",
		Long: `Checks every shard's signature (refusing one that does not match) and verifies its run file, refuses shards of different tasks or configurations and
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
			shards, signed, err := readShards(cmd.Context(), g, args)
			if err != nil {
				return err
			}
			run, err := runfile.Merge(app.Resolve, shards)
			if err != nil {
				return err
			}
			if err := writeMerged(env, g, out, run, signed, key, sign || key != ""); err != nil {
				return err
			}
			fmt.Fprintf(env.Stderr, "merged %d shard(s), %d attempts, into %s\n", len(shards), len(run.Attempts), safe(out))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the merged run file to write")
	cmd.Flags().BoolVar(&sign, "sign", false, "sign the merged run file (its signature beside it, FILE.sig.json, listing every shard's digest and signer)")
	cmd.Flags().StringVar(&key, "key", "", "the key to sign with (default: the one keys sign-exports chose, else your only key); implies --sign")
	return cmd
}
