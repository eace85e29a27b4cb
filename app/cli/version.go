package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"observatory/app/version"
)

func newVersionCmd(env Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, the commit and the build date",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			info := version.Get()
			if asJSON {
				return json.NewEncoder(env.Stdout).Encode(info)
			}
			_, err := fmt.Fprint(env.Stdout, info)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print it as a JSON object")
	return cmd
}
