package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/suitefile"
	"observatory/backend/taskfile"
)

func newTaskCmd(env Env, g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "task",
		Short: "Check a task file (observatory.task/v1), or start a new one",
		Long: `A task file says, in your own terms, what to do on your own site and what done means there:
where to start, which origins the attempt may load, the scripted plan, and the conditions
(page, HTTP, SQL) the completion gate checks. docs/taskfile.md describes the format.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newTaskCheckCmd(env, g), newTaskNewCmd(env))
	return cmd
}

func newTaskCheckCmd(env Env, g *globals) *cobra.Command {
	var trust trustFlags
	cmd := &cobra.Command{
		Use:   "check FILE",
		Short: "Check a task file: print a summary, or the path of the first bad field and exit 1",
		Long: `Reads the task file strictly (unknown fields, duplicate keys, wrong types, bad CEL
expressions, targets without a locator and URLs outside the origins are refused with the
path of the bad field) and prints what it checks, and every environment variable it reads
with whether you allowed it. Every variable it reads must be allowed and set, as run
requires (their values are never printed). A task file reaches only what you allow
(docs/security.md): files in its own folder (--allow-path DIR for more), no environment
variable (--allow-env NAME), no link-local or cloud-metadata host (--allow-link-local). The
settings' allow_paths, allow_env and allow_link_local add to the flags. A suite file
(observatory.suite/v1) or a folder of task files is checked with every task file in it,
under the same allowances.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			allowed, err := trust.trust(g)
			if err != nil {
				return err
			}
			if suitefile.IsSuite(args[0]) {
				s, err := suitefile.Load(args[0], taskfile.Options{Trust: allowed, Labs: labs.ForTaskFiles})
				if err != nil {
					return err
				}
				printSuite(env.Stdout, args[0], s)
				return nil
			}
			s, err := taskfile.Load(args[0], taskfile.Options{Trust: allowed, Labs: labs.ForTaskFiles})
			if err != nil {
				return err
			}
			if p, ok := s.(agent.Preflighted); ok { // what run refuses, check refuses
				if err := p.Preflight(); err != nil {
					return fmt.Errorf("%s: %w", args[0], err)
				}
			}
			printOutline(env.Stdout, args[0], s.Outline())
			return nil
		},
	}
	trust.register(cmd.Flags())
	return cmd
}

// printSuite prints a suite's tasks, one a line, with the attempts it runs of each.
func printSuite(w io.Writer, file string, s *suitefile.Suite) {
	fmt.Fprintf(w, "OK %s: suite %s, %d tasks, %d trials of each attempt\n", safe(file), safe(s.Name), len(s.Tasks), s.Repeat)
	for _, t := range s.Tasks {
		attempts := "all attempts"
		if len(t.Attempts) > 0 {
			attempts = strings.Join(t.Attempts, ", ")
		}
		fmt.Fprintf(w, "  %s: task %s (%s)\n", safe(t.Path), safe(t.Task.Task().Name), safe(attempts))
	}
}

// printOutline prints what a task file checks, one section a line or a list. Every string
// in it comes from the file (its name, labels, expressions' ids) and is printed escaped.
func printOutline(w io.Writer, file string, o taskfile.Outline) {
	fmt.Fprintf(w, "OK %s: task %s", safe(file), safe(o.Name))
	if o.Lab != "" {
		fmt.Fprintf(w, " on the %s lab", safe(o.Lab))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  attempts (%d): %s\n", len(o.Attempts), safe(strings.Join(o.Attempts, ", ")))
	list := func(title string, items []string) {
		fmt.Fprintf(w, "  %s (%d):\n", title, len(items))
		for _, it := range items {
			fmt.Fprintf(w, "    %s\n", safe(it))
		}
	}
	list("gate conditions", o.Conditions)
	list("signals", o.Signals)
	fmt.Fprintf(w, "  ground truth: %s\n", safe(o.Truth))
	if len(o.Safeguards) > 0 {
		list("safeguards", o.Safeguards)
	}
	if len(o.Env) > 0 {
		list("environment variables read", envLines(o.Env))
	}
}

// envLines say, for each environment variable a task reads, where it reads it and whether
// the user allowed it, and if not, how to.
func envLines(vars []taskfile.EnvVar) []string {
	out := make([]string, len(vars))
	for i, v := range vars {
		state := "allowed"
		switch {
		case !v.Allowed && v.Secret:
			state = "not allowed, and its name looks secret: only --allow-env " + v.Name + " allows it"
		case !v.Allowed:
			state = "not allowed: --allow-env " + v.Name + " allows it"
		}
		out[i] = fmt.Sprintf("%s (%s): %s", v.Name, strings.Join(v.Fields, ", "), state)
	}
	return out
}

func newTaskNewCmd(env Env) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "new [-o FILE]",
		Short: "Write a commented starter task file to standard output, or to a new file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" || out == "-" {
				_, err := env.Stdout.Write(taskfile.Starter)
				return err
			}
			if strings.EqualFold(filepath.Ext(out), ".json") { // read as JSON, which has no comments
				return fmt.Errorf("%s: the starter is YAML, with comments; name the file .yaml (a task file is read as JSON only when it ends in .json)", safe(out))
			}
			f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("%s already exists; task new never overwrites a file", out)
			}
			if err != nil {
				return err
			}
			if _, err := f.Write(taskfile.Starter); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			fmt.Fprintf(env.Stderr, "wrote %s; edit it, then `observatory task check %s`\n", safe(out), safe(out))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the file to write (never overwritten); - or empty: standard output")
	return cmd
}
