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
	var asJSON, calibration bool
	var by string
	var runIDs []string
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
and cost per success). Each is defined in docs/metrics.md and docs/suites.md.

With --calibration it prints instead how often each signal (the success notice, Parallax's
rule, each model judge, the agent's claim, and the gate) agrees with ground truth and with
the gate: its confusion table, false-done rate, precision and recall with Wilson 95%
intervals, and the attempts behind each wrong call (--json has every cell's). See
docs/judges.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withReader(g, func(st *store.Store, _ string) error {
				if calibration {
					c, err := app.Calibration(st, by, runIDs)
					if err != nil {
						return err
					}
					if asJSON {
						return writeJSON(env.Stdout, c)
					}
					return printCalibration(env, c)
				}
				if len(runIDs) > 0 {
					return fmt.Errorf("--run chooses the runs of --calibration")
				}
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
	cmd.Flags().BoolVar(&calibration, "calibration", false, "how often each signal agrees with ground truth and the gate")
	cmd.Flags().StringArrayVar(&runIDs, "run", nil, "calibrate over this run only (repeatable; default: the whole history)")
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

// printCalibration prints, per slice, one row per signal and reference: the confusion table
// (done and right, done and wrong, not done and wrong, not done and right, unconfirmed), the
// false-done rate, precision and recall, each as k/n with its Wilson 95% interval; then the
// attempts behind each wrong call, and where the gate stood in for a missing ground truth.
func printCalibration(env Env, c metrics.Calibration) error {
	if len(c.Slices) == 0 {
		fmt.Fprintln(env.Stdout, "no finished attempts yet: `observatory run --lab booking` makes some")
		return nil
	}
	rate := func(r metrics.Rate) string {
		if r.N == 0 {
			return "-"
		}
		return fmt.Sprintf("%d/%d %s", r.K, r.N, r.Interval)
	}
	for i, s := range append(c.Slices, c.Overall) {
		if i > 0 {
			fmt.Fprintln(env.Stdout)
		}
		if i == len(c.Slices) {
			fmt.Fprintln(env.Stdout, "OVERALL (every attempt)")
		} else {
			fmt.Fprintf(env.Stdout, "%s: %s\n", strings.ToUpper(string(c.By)), safe(s.Key))
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SIGNAL\tAGAINST\tDONE, RIGHT\tDONE, WRONG\tNOT DONE, WRONG\tNOT DONE, RIGHT\tUNCONFIRMED\tFALSE DONE\tPRECISION\tRECALL")
		var notes []string
		for _, sc := range s.Signals {
			cf := sc.Confusion
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", safe(sc.Label), sc.Against, len(cf.TrueDone), len(cf.FalseDone),
				len(cf.FalseNotDone), len(cf.TrueNotDone), len(cf.Unconfirmed), rate(sc.FalseDone), rate(sc.Precision), rate(sc.Recall))
			for _, cell := range []struct {
				name string
				refs []metrics.AttemptRef
			}{{"done, wrong", cf.FalseDone}, {"not done, wrong", cf.FalseNotDone}} {
				if len(cell.refs) == 0 {
					continue
				}
				names := make([]string, len(cell.refs))
				for i, r := range cell.refs {
					names[i] = safe(r.Run + "/" + r.Attempt)
				}
				notes = append(notes, fmt.Sprintf("%s against the %s, %s: %s", safe(sc.Label), sc.Against, cell.name, strings.Join(names, ", ")))
			}
			if len(sc.Pooled) > 0 {
				notes = append(notes, fmt.Sprintf("%s against the %s pools %d signals: %s", safe(sc.Label), sc.Against, len(sc.Pooled), safe(strings.Join(sc.Pooled, "; "))))
			}
			if sc.GateStandsIn > 0 {
				notes = append(notes, fmt.Sprintf("%s against the truth: the gate stands in for the ground truth of %d attempts, whose task declares none", safe(sc.Label), sc.GateStandsIn))
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, n := range notes {
			fmt.Fprintln(env.Stdout, "  "+n)
		}
	}
	return nil
}
