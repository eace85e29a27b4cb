package cireport

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"observatory/backend/compare"
)

// GitHub Actions' limits: it shows at most 10 error and 10 warning annotations of a step, and
// refuses a step summary past 1 MiB.
const (
	MaxAnnotations = 10
	// MaxSummary is the most bytes WriteGitHub appends to the step summary, well under
	// GitHub's 1 MiB so that other steps' summaries fit too.
	MaxSummary = 256 << 10
)

// WriteGitHub writes r for GitHub Actions: workflow commands to cmds (an ::error annotation
// per failed attempt and a ::warning per flaky attempt or check marked wrong, worst first, at
// most MaxAnnotations of each, the last one counting the rest, and a ::notice with the
// counts), and a Markdown summary to summary (nil for none): the table of attempts with
// their rates and intervals and what was marked wrong, at most MaxSummary bytes.
func WriteGitHub(cmds, summary io.Writer, r Report) error {
	var errs, warns []Case
	for _, c := range r.Cases {
		switch {
		case c.Failed:
			errs = append(errs, c)
		case c.Flaky || len(c.Wrong) > 0:
			warns = append(warns, c)
		}
	}
	worstFirst(errs)
	worstFirst(warns)
	var b strings.Builder
	annotate(&b, "error", errs, func(c Case) string { return c.Why + wrongSuffix(c) }, "more attempts failed")
	annotate(&b, "warning", warns, func(c Case) string {
		if c.Flaky {
			return fmt.Sprintf("flaky: %d of %d trials completed.", c.Completed, len(c.Trials)) + wrongSuffix(c)
		}
		return strings.TrimPrefix(wrongSuffix(c), " ")
	}, "more attempts are flaky or had a check marked wrong")
	fmt.Fprintf(&b, "::notice title=%s::%s\n", escapeProperty("Observatory"), escapeData(r.counts()))
	if _, err := io.WriteString(cmds, b.String()); err != nil {
		return err
	}
	if summary == nil {
		return nil
	}
	_, err := io.WriteString(summary, r.markdown(MaxSummary))
	return err
}

// worstFirst orders cases from the lowest completion rate, then the most checks wrong, keeping
// the report's order among equals.
func worstFirst(cs []Case) {
	slices.SortStableFunc(cs, func(a, b Case) int {
		return cmp.Or(cmp.Compare(a.Rate(), b.Rate()), cmp.Compare(len(b.Wrong), len(a.Wrong)))
	})
}

// annotate writes one annotation of kind per case, at most MaxAnnotations: past that, the
// last one says how many more there are.
func annotate(b *strings.Builder, kind string, cs []Case, message func(Case) string, more string) {
	for i, c := range cs {
		if i == MaxAnnotations-1 && len(cs) > MaxAnnotations {
			fmt.Fprintf(b, "::%s title=%s::%s\n", kind, escapeProperty("Observatory"), escapeData(fmt.Sprintf("%d %s: see the step summary", len(cs)-i, more)))
			return
		}
		fmt.Fprintf(b, "::%s title=%s::%s\n", kind, escapeProperty(c.Task+"/"+c.Name()), escapeData(message(c)))
	}
}

func wrongSuffix(c Case) string {
	if len(c.Wrong) == 0 {
		return ""
	}
	return " Marked wrong (disagreed with the ground truth): " + strings.Join(c.Wrong, "; ") + "."
}

// counts is the report in one line: attempts, failed, flaky.
func (r Report) counts() string {
	trials := 0
	for _, c := range r.Cases {
		trials += len(c.Trials)
	}
	return fmt.Sprintf("%d attempts (%d trials): %d passed, %d failed, %d flaky", len(r.Cases), trials, len(r.Cases)-r.Failed(), r.Failed(), r.Flaky())
}

// escapeData escapes a workflow command's message as GitHub's toolkit does (@actions/core).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value: as data, and : and , too.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// markdown is the step summary, at most limit bytes: the rows that fit, then a line saying
// how many were left out.
func (r Report) markdown(limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Observatory\n\n%s.", r.counts())
	if r.Policy.MinRate > 0 {
		fmt.Fprintf(&b, " An attempt passes when its completion rate's 95%% lower bound is at least %.0f%%.", 100*r.Policy.MinRate)
	}
	if r.Policy.FailOnFlaky {
		b.WriteString(" A flaky attempt fails.")
	}
	compared := slices.ContainsFunc(r.Cases, func(c Case) bool { return c.Against != nil })
	b.WriteString("\n\n| task | attempt | verdict | completed | rate | 95% interval | pass^k | flaky | marked wrong |")
	if compared {
		b.WriteString(" against the baseline |\n|---|---|---|---|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("\n|---|---|---|---|---|---|---|---|---|\n")
	}
	tail := "\n_Rates are completed trials of all trials; the interval is Wilson's 95% score interval. Marked wrong: checks whose call disagreed with the ground truth._\n"
	for i, c := range r.Cases {
		verdict := "✅ passed"
		if c.Failed {
			verdict = "❌ " + c.failureType()
		}
		flaky := ""
		if c.Flaky {
			flaky = "flaky"
		}
		row := fmt.Sprintf("| %s | %s | %s | %d/%d | %.0f%% | [%.0f%%, %.0f%%] | %.2f | %s | %s |", cell(c.Task), cell(c.Name()), verdict,
			c.Completed, len(c.Trials), 100*c.Rate(), 100*c.Interval.Lo, 100*c.Interval.Hi, c.PassHatK, flaky, cell(strings.Join(c.Wrong, "; ")))
		if compared {
			row += " " + againstCell(c.Against) + " |"
		}
		row += "\n"
		if b.Len()+len(row)+len(tail)+100 > limit {
			fmt.Fprintf(&b, "\n_%d more attempts left out: the summary stays under %d KiB; the reports and the run file hold them all._\n", len(r.Cases)-i, limit>>10)
			break
		}
		b.WriteString(row)
	}
	b.WriteString(tail)
	return b.String()
}

// failureType is the terminal state of the case's first trial that did not complete, or
// "below min rate" when every trial completed and the policy's rate failed it anyway.
func (c Case) failureType() string {
	if f := c.Failures(); len(f) > 0 {
		return orUnfinished(string(f[0].Terminal))
	}
	return "below min rate"
}

// cell makes s one Markdown table cell: no line breaks, pipes and angle brackets escaped.
func cell(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ", "|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}

// againstCell is a comparison row in one cell: the baseline's trials, the difference with its
// interval, and the verdict.
func againstCell(a *compare.RateRow) string {
	if a == nil {
		return "not in the baseline"
	}
	return cell(fmt.Sprintf("%d/%d, %+.0f%% [%+.0f%%, %+.0f%%]: %s", a.A.K, a.A.N, 100*a.Difference, 100*a.Interval.Lo, 100*a.Interval.Hi, a.Verdict))
}
