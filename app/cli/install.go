package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"observatory/backend/browser"
)

func newInstallCmd(env Env) *cobra.Command {
	return &cobra.Command{
		Use:   "install",
		Short: "Install the Playwright driver (never a browser) and link ffmpeg for video",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := browser.Install(cmd.Context()); err != nil {
				return err
			}
			fmt.Fprintln(env.Stderr, "the Playwright driver is installed")
			return nil
		},
	}
}
