package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"observatory/backend/browser"
)

func newInstallCmd(env Env) *cobra.Command {
	var withBrowser bool
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install the Playwright driver and link ffmpeg for video; with --with-browser, Playwright's Chromium too",
		Long: "Install the Playwright driver and link the system ffmpeg for video recording. No browser is\n" +
			"downloaded unless --with-browser is given: Google Chrome, Microsoft Edge or Chromium is used\n" +
			"when installed. --with-browser downloads Playwright's own Chromium (PLAYWRIGHT_DOWNLOAD_HOST\n" +
			"names a mirror) and, on Linux, installs the system libraries it needs (with sudo when not root).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !withBrowser {
				if err := browser.Install(cmd.Context()); err != nil {
					return err
				}
				fmt.Fprintln(env.Stderr, "the Playwright driver is installed")
				return nil
			}
			exe, err := browser.InstallWithBrowser(cmd.Context(), progressLines(env.Stderr), env.Stderr)
			if err != nil {
				return err
			}
			fmt.Fprintln(env.Stderr, "the Playwright driver and its Chromium are installed:", exe)
			return nil
		},
	}
	cmd.Flags().BoolVar(&withBrowser, "with-browser", false,
		"also download Playwright's Chromium (and its system libraries on Linux); needs internet")
	return cmd
}

// progressLines writes a line to w each time a download or unpack passes another tenth.
func progressLines(w io.Writer) browser.ProgressFunc {
	var phase string
	tenth := -1
	return func(p browser.Progress) {
		if p.Phase != phase {
			phase, tenth = p.Phase, -1
		}
		if p.Total <= 0 || int(p.Done*10/p.Total) == tenth {
			return
		}
		tenth = int(p.Done * 10 / p.Total)
		fmt.Fprintf(w, "%s: %d%% (%s of %s)\n", phaseName(p.Phase), tenth*10, size(p.Done, p.Phase), size(p.Total, p.Phase))
	}
}

// phaseName says what a progress phase is doing.
func phaseName(phase string) string {
	switch phase {
	case "driver":
		return "downloading the Playwright driver"
	case "node":
		return "downloading Node.js for the driver"
	case "chromium":
		return "downloading Chromium"
	default:
		return "unpacking"
	}
}

// size is n bytes in MB, or n files while unpacking.
func size(n int64, phase string) string {
	if phase == "unpack" {
		return fmt.Sprintf("%d files", n)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
