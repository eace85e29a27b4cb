package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"observatory/backend/browser"
)

func newInstallCmd(env Env) *cobra.Command {
	var withBrowser bool
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install the Playwright driver and link ffmpeg for video; with --with-browser, Playwright's Chromium too",
		Long: "Install the Playwright driver and link the system ffmpeg for video recording. No browser is\n" +
			"downloaded unless --with-browser is given: Debian's chromium package is used. On Ubuntu,\n" +
			"whose chromium package is a snap wrapper Playwright cannot drive, --with-browser downloads\n" +
			"Playwright's own Chromium and installs the system libraries it needs (with sudo when not root).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			install, done := browser.Install, "the Playwright driver is installed"
			if withBrowser {
				install, done = browser.InstallWithBrowser, "the Playwright driver and its Chromium are installed"
			}
			if err := install(cmd.Context()); err != nil {
				return err
			}
			fmt.Fprintln(env.Stderr, done)
			return nil
		},
	}
	cmd.Flags().BoolVar(&withBrowser, "with-browser", false,
		"also download Playwright's Chromium and its system libraries (needs internet; for Ubuntu)")
	return cmd
}
