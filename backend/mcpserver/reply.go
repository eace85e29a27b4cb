package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
	"observatory/backend/session"
)

// maxEvidence bounds each condition's evidence in task_done's result.
const maxEvidence = 500

// writeStep reports one action in the harness's section: the harness's decision and what
// came of it. It returns why the action did not run as asked (held, denied, refused,
// failed), "" when it did.
func writeStep(b *strings.Builder, p agent.Proposal, r session.Result) string {
	if r.Step == nil {
		fmt.Fprintf(b, "- %s: not run, the attempt ended first\n", p.Action.Description)
		return "Not run: the attempt ended first"
	}
	st := r.Step
	d := st.Decision
	fmt.Fprintf(b, "- Step %d: %s\n", st.Index+1, st.Action.Description)
	fmt.Fprintf(b, "  - Harness: %s (%s", d.Admission, d.Class)
	if d.Contract != "" {
		fmt.Fprintf(b, ", %s", d.Contract)
	}
	b.WriteString(")")
	if d.Why != "" {
		fmt.Fprintf(b, ": %s", d.Why)
	}
	b.WriteString("\n")
	for _, a := range st.Approvals {
		fmt.Fprintf(b, "  - Approval asked: %s", a.Answer)
		if a.Request.Effect != "" {
			fmt.Fprintf(b, ", to %s", a.Request.Effect)
		}
		if a.Note != "" {
			fmt.Fprintf(b, " (%s)", a.Note)
		}
		if d := a.Request.Differences(); len(d) > 0 {
			fmt.Fprintf(b, "; not as the task asked: %s", strings.Join(d, "; "))
		}
		b.WriteString("\n")
	}
	if len(st.Blocked) > 0 {
		fmt.Fprintf(b, "  - Blocked by the origins guard: %s\n", strings.Join(st.Blocked, ", "))
	}
	why := ""
	if n := len(st.Approvals); n > 0 && st.Approvals[n-1].Answer != agent.AnswerApprove {
		why = "Refused, nothing was done: the approval it needs was not given"
		if st.Approvals[n-1].Answer == agent.AnswerDeny {
			why = "Refused, nothing was done: the user denied the approval it needs"
		}
		if note := st.Approvals[n-1].Note; note != "" {
			why += " (" + note + ")"
		}
	}
	switch {
	case why != "":
	case st.Unresolved:
		why = fmt.Sprintf("Refused, nothing was done: %s; take a new snapshot", st.Error)
	case st.Error != "" && d.Admission != agent.Allow:
		why = "Refused, nothing was done: " + st.Error
	case st.Error != "":
		why = "Error: " + st.Error
	}
	if why != "" {
		fmt.Fprintf(b, "  - %s\n", why)
	} else {
		b.WriteString("  - Done\n")
	}
	if st.Guidance != "" {
		fmt.Fprintf(b, "  - Guidance: %s\n", st.Guidance)
	}
	return why
}

// writeEnded reports the end of the attempt an action ended.
func writeEnded(b *strings.Builder, a agent.Attempt) {
	fmt.Fprintf(b, "- Attempt %s ended %s: %s\n- Your next browser call starts the next attempt.\n", a.Slug, a.Terminal, a.Reason)
}

// gateOf is the gate as task_done reports it, its evidence bounded.
func gateOf(g agent.Gate) gateResult {
	out := gateResult{Done: g.Done, Conditions: []condition{}}
	for _, c := range g.Conditions {
		out.Conditions = append(out.Conditions, condition{ID: c.ID, Label: c.Label, Holds: c.Done,
			CouldNotConfirm: bound(c.Unconfirmed), Reason: bound(c.Evidence)})
	}
	return out
}

func bound(s string) string {
	if len(s) <= maxEvidence {
		return s
	}
	return strings.ToValidUTF8(s[:maxEvidence], "") + "…"
}

// done records the agent's claim and asks the gate, which ends the attempt.
func (s *server) done(ctx context.Context, in doneArgs) (*mcp.CallToolResult, doneResult, error) {
	claim := agent.Claim{Done: in.Done == nil || *in.Done, Answer: in.Answer, Words: in.Claim}
	a, err := s.opts.Session.Done(ctx, s.opts.Stopped, claim)
	if err != nil {
		return refused(err), doneResult{}, nil
	}
	res := doneResult{Attempt: a.Slug, Gate: gateOf(a.Verdicts.Gate), Terminal: string(a.Terminal), Reason: a.Reason}
	var b strings.Builder
	verdict := "not done"
	if res.Gate.Done {
		verdict = "done"
	}
	fmt.Fprintf(&b, "### The completion gate: %s\nAttempt %s ended %s: %s\n\n", verdict, a.Slug, a.Terminal, a.Reason)
	for _, c := range res.Gate.Conditions {
		mark := "holds"
		switch {
		case c.CouldNotConfirm != "":
			mark = "could not confirm"
		case !c.Holds:
			mark = "does not hold"
		}
		fmt.Fprintf(&b, "- %s: %s (%s)\n", c.Label, mark, c.Reason)
	}
	b.WriteString("\nYour claim is recorded beside the gate. Your next browser call starts the next attempt.\n")
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, res, nil
}
