// Package cli is Observatory's command line: the desktop by default, and the subcommands
// run, serve, runs, show, export, import, verify, install and version. It only parses flags and wires
// the backend together; the work happens in backend/ and app/.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/cobra"

	"observatory/backend/agent"
)

// Env is what the commands need from the process.
type Env struct {
	Stdout, Stderr io.Writer
	// Stdin is where a terminal user answers approval requests; nil, or anything but a
	// terminal, answers none of them (they are held).
	Stdin io.Reader
	// Assets is the built frontend (frontend/dist), served by the desktop and by serve.
	Assets fs.FS
}

// globals are the flags every command shares, and where commands warn.
type globals struct {
	dataDir string
	stderr  io.Writer
}

// Execute runs the command line with args and returns the process exit code.
func Execute(ctx context.Context, env Env, args []string) int {
	root := newRoot(env)
	root.SetArgs(args)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	if err := root.ExecuteContext(ctx); err != nil {
		// An error can quote a file (a refused run file's key, a bundle's entry name), so it
		// is printed here, made safe, rather than by cobra.
		fmt.Fprintln(env.Stderr, "Error:", safe(err.Error()))
		if errors.Is(err, agent.ErrNothingSelected) {
			return statusNothingSelected
		}
		if s, ok := err.(interface{ ExitStatus() int }); ok { // only when it is all that went wrong
			return s.ExitStatus()
		}
		return 1
	}
	return 0
}

func newRoot(env Env) *cobra.Command {
	g := &globals{stderr: env.Stderr}
	root := &cobra.Command{
		Use:   "observatory",
		Short: "A workbench for browser agents: run, trace, gate and replay browser tasks",
		Long: `Observatory runs browser tasks in a real Chromium, records every step with the page
before and after, and calls a task done only when a completion gate proves it from
authoritative state. Without a subcommand it opens the desktop window.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&g.dataDir, "data-dir", "", "where runs and media are stored (default: $OBSERVATORY_DATA_DIR, else the per-user data folder)")
	root.AddCommand(
		newRunCmd(env, g),
		newServeCmd(env, g),
		newMCPCmd(env, g),
		newRunsCmd(env, g),
		newShowCmd(env, g),
		newExportCmd(env, g),
		newImportCmd(env, g),
		newVerifyCmd(env, g),
		newMergeCmd(env, g),
		newKeysCmd(env, g),
		newRerunCmd(env, g),
		newStopCmd(env, g),
		newMetricsCmd(env, g),
		newCompareCmd(env, g),
		newInstallCmd(env),
		newTaskCmd(env, g),
		newVersionCmd(env),
	)
	addDesktop(root, env, g)
	return root
}
