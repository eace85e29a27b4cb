package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/metrics"
	"observatory/backend/store"
)

func newMetricsCmd(env Env, g *globals) *cobra.Command {
	var asJSON bool
	var by string
	names := make([]string, len(metrics.Slicings))
	for i, b := range metrics.Slicings {
		names[i] = string(b)
	}
	cmd := &cobra.Command{
		Use:   "metrics",
		Short: "Print outcome metrics across the run history, sliced by task, lab, attempt, planner or risk",
		Long: `Computes outcome metrics from every stored run: intended-state success, wrong-target rate,
revalidation stop rate, confirmation burden, recovery loops, side-effect leakage, duplicate
side effects, policy denials, injection stops and the latency of each loop stage, and the
completion rate's 95% interval and flaky attempts (with --json also pass@k, pass^k, medians
and cost per success). Each is defined in docs/metrics.md and docs/suites.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withReader(g, func(st *store.Store, _ string) error {
				r, err := app.Metrics(st, by)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(env.Stdout, r)
				}
				if len(r.Slices) == 0 {
					fmt.Fprintln(env.Stdout, "no finished attempts yet: `observatory run --lab booking` makes some")
					return nil
				}
				return printMetrics(env, r)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&by, "by", string(metrics.ByTask), "slice by "+strings.Join(names, ", "))
	return cmd
}

// printMetrics prints one row per slice, then the overall row; rates as percentages, the
// completion rate's 95% interval, the flaky attempts counted, latencies in ms.
func printMetrics(env Env, r metrics.Report) error {
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tRUNS\tATTEMPTS\tCOMPLETED\t95%% INTERVAL\tFLAKY\tTRUTH UNCONFIRMED\tSUCCESS\tWRONG TARGET\tREVALIDATION STOPS\tBURDEN\tRECOVERY\tLEAKS\tDUPLICATES\tDENIALS\tINJECTIONS\tPLAN/ACT/VERIFY MS\n", strings.ToUpper(string(r.By)))
	pct := func(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }
	for _, s := range append(r.Slices, r.Overall) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%d\t%d\t%s\t%s\t%s\t%.2f\t%d\t%d\t%d\t%d\t%d\t%.0f/%.0f/%.0f\n", safe(s.Key), s.Runs, s.Attempts, s.Completed,
			s.Interval, len(s.Flaky), s.Unconfirmed, pct(s.IntendedSuccess), pct(s.WrongTarget), pct(s.RevalidationStops), s.ConfirmationBurden, s.RecoveryLoops,
			s.SideEffectLeaks, s.DuplicateSideEffects, s.PolicyDenials, s.InjectionStops, s.Latency.PlanMS, s.Latency.ActMS, s.Latency.VerifyMS)
	}
	return tw.Flush()
}
