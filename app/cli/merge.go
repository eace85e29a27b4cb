package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/runfile"
)

func newMergeCmd(env Env, g *globals) *cobra.Command {
	var out, key string
	var sign bool
	var ci ciFlags
	cmd := &cobra.Command{
		Use:   "merge SHARD... -o FILE",
		Short: "Join the run files of one run's shards (run --shard K/N) into one run file",
		Long: `Checks every shard's signature (refusing one that does not match) and verifies its run file, refuses shards of different tasks or configurations and
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
			shards, signed, err := readShards(cmd.Context(), g, args)
			if err != nil {
				return err
			}
			recorded, err := runfile.CheckShards(shards)
			if err != nil {
				return err
			}
			run, err := runfile.Merge(app.Resolve, shards)
			if err != nil {
				return err
			}
			if err := writeMerged(env, g, out, run, recorded, signed, key, sign || key != ""); err != nil {
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
	cmd.Flags().BoolVar(&sign, "sign", false, "sign the merged run file (its signature beside it, FILE.sig.json, listing every shard's digest and signer)")
	cmd.Flags().StringVar(&key, "key", "", "the key to sign with (default: the one keys sign-exports chose, else your only key); implies --sign")
	return cmd
}
