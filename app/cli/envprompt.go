package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/mattn/go-isatty"

	"observatory/backend/taskfile"
)

// envConfirm asks on the terminal whether a task file may read the environment variables
// nothing allowed it, listing every variable it reads, where, and which the user has not
// allowed; only a y typed after the question allows them, for this run. Off a terminal it
// is nil: such variables are refused, with the flag that allows them.
func envConfirm(ctx context.Context, env Env) func([]taskfile.EnvVar) bool {
	tty, ok := env.Stdin.(*os.File)
	if !ok || !(isatty.IsTerminal(tty.Fd()) || isatty.IsCygwinTerminal(tty.Fd())) {
		return nil
	}
	t := &terminal{in: newLines(tty), out: env.Stderr}
	return func(vars []taskfile.EnvVar) bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		fmt.Fprintln(t.out, "\nThe task file reads environment variables, and may send their values to the sites it names:")
		for _, l := range envLines(vars) {
			fmt.Fprintf(t.out, "  %s\n", safe(l))
		}
		if t.in.Fresh() != nil {
			fmt.Fprintln(t.out, "(the terminal's type-ahead cannot be discarded: not allowed)")
			return false
		}
		fmt.Fprint(t.out, "Allow this run to read the variables not allowed? [y/N] ")
		line, err := t.in.Line(ctx)
		if err != nil {
			fmt.Fprintln(t.out, "(no answer: not allowed)")
			return false
		}
		return strings.EqualFold(strings.TrimSpace(line), "y") || strings.EqualFold(strings.TrimSpace(line), "yes")
	}
}
