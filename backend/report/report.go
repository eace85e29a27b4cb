package report

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/ledger"
)

//go:embed report.html
var files embed.FS

var tmpl = template.Must(template.ParseFS(files, "report.html"))

// Write writes run's report to w. mediaDir is the run's media folder, where its screenshots
// are; "" (or a folder that is not there) gives a report without them, saying so.
func Write(w io.Writer, run agent.Run, mediaDir string) error {
	in := newInliner(mediaDir)
	defer in.close()
	p := page{Run: run, Max: fmt.Sprintf("%d MiB", MaxMedia>>20)}
	if len(run.Attempts) > 0 {
		p.Columns = columnsOf(run.Attempts[0].Verdicts)
	}
	for i, a := range run.Attempts {
		p.Attempts = append(p.Attempts, attempt(i, a, p.Columns, in))
	}
	p.Left = in.left
	if err := tmpl.Execute(w, p); err != nil {
		return fmt.Errorf("writing the report of run %s: %w", run.ID, err)
	}
	return nil
}

// attempt is the view of one attempt, its screenshots inlined by in.
func attempt(i int, a agent.Attempt, cols []column, in *inliner) attemptView {
	v := attemptView{Anchor: fmt.Sprintf("attempt-%d", i+1), Title: a.Title, Slug: a.Slug,
		Terminal: string(a.Terminal), Reason: a.Reason, Cells: cells(a.Verdicts, cols), Settings: settings(a), Ledger: ledger.Of(a),
		Turns: turns(a.ModelTurns)}
	if c, ok := a.Verdicts.Gate.FirstUnmet(); ok {
		v.FirstUnmet = c.Label + ": " + callOf(c.Verdict)
	}
	answers := map[string]agent.Answer{}
	for _, an := range a.Answers {
		answers[an.Condition] = an
	}
	for _, c := range a.Verdicts.Gate.Conditions {
		cv := conditionView{Label: c.Label, Evidence: c.Evidence, State: map[string]string{
			"done": "holds", "not done": "does not hold", "could not confirm": "could not confirm"}[callOf(c.Verdict)]}
		cv.Class = strings.ReplaceAll(cv.State, " ", "-")
		if an, ok := answers[c.ID]; ok {
			cv.Answer, _ = answerText(an)
		}
		v.Conditions = append(v.Conditions, cv)
	}
	for k, c := range cells(a.Verdicts, cols) {
		v.Verdicts = append(v.Verdicts, verdictView{Label: cols[k].Label, cell: c})
	}
	names := labels(a.Verdicts)
	for _, an := range a.Answers {
		text, failed := answerText(an)
		label := names[an.Condition]
		if label == "" {
			label = an.Condition
		}
		v.Answers = append(v.Answers, answerView{Label: label, Kind: an.Kind, Text: text, Failed: failed})
	}
	for k, s := range a.Steps {
		decision := fmt.Sprintf("%s · %s — %s", s.Decision.Class, s.Decision.Admission, s.Decision.Reason)
		if s.Provenance == agent.Observed {
			decision = "observed, not proposed: the agent process took this action on its own; there is no proposal or decision"
		}
		v.Steps = append(v.Steps, stepView{N: k + 1, Description: s.Action.Description, Action: actionText(s.Action),
			Reason: s.Reason, Decision: decision,
			Error: s.Error, StartMS: s.StartMS, DurationMS: s.DurationMS, Distance: fmt.Sprintf("%.3f", s.Distance),
			Before: in.shot(s.Before.Screenshot, fmt.Sprintf("Step %d, before", k+1)),
			After:  in.shot(s.After.Screenshot, fmt.Sprintf("Step %d, after", k+1)), Blocked: s.Blocked,
			Boxes: overlays(s), Nearest: nearest(s), Turns: turns(s.ModelTurns)})
	}
	return v
}

// actionText is what an action does in words: its kind, target and value.
func actionText(a agent.Action) string {
	if a.Kind == agent.ActVerify {
		return "verify all completion conditions"
	}
	parts := []string{string(a.Kind)}
	if t := a.Target.String(); t != "" {
		parts = append(parts, t)
	}
	if v := a.Redacted().Value; v != "" {
		parts = append(parts, "“"+v+"”")
	}
	return strings.Join(parts, " ")
}
