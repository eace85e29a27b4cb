package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/compare"
	"observatory/backend/store"
)

func newCompareCmd(env Env, g *globals) *cobra.Command {
	var asJSON bool
	var ci ciFlags
	cmd := &cobra.Command{
		Use:   "compare RUN_A RUN_B",
		Short: "Compare two runs of a task, or two suite runs, as an A/B test: each attempt's completion rate, the difference and an exact test",
		Long: `Compares two stored runs of the same task (ids or unique prefixes, as observatory runs lists
them), attempt by attempt, largest change first: how many trials completed in each, B's rate
minus A's with a 95% interval, and an exact two-sided test at the 0.05 level: McNemar's when
both runs have the same trials (run --repeat N), Fisher's otherwise. Where the test finds
nothing it says "no evidence of a difference", and when the trials are too few for any
difference to show, how many are needed: at least 6 paired trials.

Two suite runs (the ids run SUITE prints, "smoke@20261203T…") compare the same way, every
task's attempts at once ("task/attempt"), all of them together in the overall row. See
docs/suites.md.

With --report, B's run is reported as CI reads it (docs/ci.md), judged against A: an attempt
fails when B completes it less often than A and the test finds the difference.`,
		Example: `  observatory run --lab booking --task-file --repeat 6 --selectors exact
  observatory run --lab booking --task-file --repeat 6 --selectors alias
  observatory compare 20261203T0910 20261203T0912
  observatory compare smoke@20261203T091000-3f9a1c smoke@20261203T093000-b07e11`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := ci.check(); err != nil {
				return err
			}
			return withReader(g, func(st *store.Store, dataDir string) error {
				c, err := app.CompareRates(st, args[0], args[1])
				if err != nil {
					return err
				}
				if asJSON {
					err = writeJSON(env.Stdout, c)
				} else {
					err = printRates(env.Stdout, c)
				}
				if err != nil || len(ci.reports) == 0 {
					return err
				}
				runs, err := app.RunsOf(st, c.B.ID)
				if err != nil {
					return err
				}
				rep := ci.reportOf(runs, nil, nil)
				rep.Against(c, app.IsSuiteRun(c.B.ID))
				var html func(io.Writer) error
				if len(runs) == 1 {
					html = htmlOf(runs[0], mediaDir(dataDir, runs[0].ID))
				}
				return ci.write(env, rep, asJSON, html)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	ci.registerReports(cmd.Flags())
	return cmd
}

// printRates writes one row per attempt, largest change first, then the overall row.
func printRates(w io.Writer, c compare.RateComparison) error {
	what, unit := "run", "ATTEMPT"
	if app.IsSuiteRun(c.A.ID) {
		what, unit = "suite run", "TASK/ATTEMPT"
	}
	fmt.Fprintf(w, "A: %s %s (%s)\nB: %s %s (%s)\n\n", what, safe(c.A.ID), safe(c.A.Task), what, safe(c.B.ID), safe(c.B.Task))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, unit+"\tA\tB\tB − A\t95% INTERVAL\tTEST\tP\tVERDICT")
	row := func(r compare.RateRow) {
		fmt.Fprintf(tw, "%s\t%d/%d\t%d/%d\t%+.0f%%\t[%+.0f%%, %+.0f%%]\t%s\t%.3g\t%s\n", safe(r.Attempt), r.A.K, r.A.N, r.B.K, r.B.N,
			100*r.Difference, 100*r.Interval.Lo, 100*r.Interval.Hi, r.Test, r.P, safe(r.Verdict))
	}
	for _, r := range c.Rows {
		row(r)
	}
	row(c.Overall)
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(c.Unmatched) > 0 {
		fmt.Fprintf(w, "\nin one run only, not compared: %s\n", safe(strings.Join(c.Unmatched, ", ")))
	}
	return nil
}
