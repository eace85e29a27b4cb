package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"observatory/backend/agent"
	"observatory/backend/metrics"
)

// trialsJSON is `run --repeat N --json`: every trial's row, and the estimates by attempt.
type trialsJSON struct {
	Trials    []jsonRow      `json:"trials"`
	Estimates metrics.Report `json:"estimates"`
}

// printTrials writes a repeated run's estimates by attempt, as a table or as JSON with every
// trial's row.
func printTrials(env Env, asJSON bool, run agent.Run) error {
	r := metrics.Compute([]agent.Run{run}, metrics.ByAttempt)
	if asJSON {
		return writeJSON(env.Stdout, trialsJSON{Trials: jsonRows(run.Attempts), Estimates: r})
	}
	return printEstimates(env.Stdout, r)
}

// printEstimates writes one row per slice of r, then the overall row: how many trials
// completed, the rate with its Wilson 95% interval, pass@k and pass^k at r.K, the median
// steps and wall time, what a success cost, and the flaky attempts named below.
func printEstimates(w io.Writer, r metrics.Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tTRIALS\tCOMPLETED\tRATE\t95%% INTERVAL\tPASS@%d\tPASS^%d\tMEDIAN STEPS\tMEDIAN WALL\tTOKENS/SUCCESS\tCOST/SUCCESS\tFLAKY\n",
		strings.ToUpper(string(r.By)), r.K, r.K)
	row := func(s metrics.Slice) {
		flaky := ""
		if len(s.Flaky) > 0 {
			flaky = fmt.Sprintf("%d", len(s.Flaky))
		}
		// A scripted plan spends nothing on a model: say so rather than print zeros.
		tokens, cost := "-", "-"
		if s.TokensPerSuccess > 0 || s.CostPerSuccessUSD > 0 {
			tokens, cost = fmt.Sprintf("%.0f", s.TokensPerSuccess), fmt.Sprintf("$%.4f", s.CostPerSuccessUSD)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f%%\t%s\t%.2f\t%.2f\t%.1f\t%.1fs\t%s\t%s\t%s\n", safe(s.Key), s.Attempts, s.Completed,
			100*ratioOf(s.Completed, s.Attempts), s.Interval, s.PassAtK, s.PassHatK, s.MedianSteps, s.MedianWallMS/1000,
			tokens, cost, flaky)
	}
	for _, s := range r.Slices {
		row(s)
	}
	row(r.Overall)
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Overall.Flaky) > 0 {
		fmt.Fprintf(w, "\nflaky (both completed and not, run the same way): %s\n", safe(strings.Join(r.Overall.Flaky, ", ")))
	}
	return nil
}

func ratioOf(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}
