package agent

import (
	"errors"
	"fmt"
	"strings"
)

// ClaimSource says who made an agent's claim: which front door the agent drove the page
// through.
type ClaimSource string

// The sources of a claim.
const (
	// ClaimMCP is an agent that drove the page through Observatory's MCP tools and called
	// task_done (or ended without calling it).
	ClaimMCP ClaimSource = "mcp"
	// ClaimProcess is an outside agent process whose inputs were observed in the page.
	ClaimProcess ClaimSource = "process"
	// ClaimPlanner is Observatory's own planner saying it is done.
	ClaimPlanner ClaimSource = "planner"
)

// ClaimSources lists every source of a claim.
var ClaimSources = []ClaimSource{ClaimMCP, ClaimProcess, ClaimPlanner}

// ClaimID and ClaimLabel name the signal an attempt's claim becomes beside the task's own.
const (
	ClaimID    = "agent_claim"
	ClaimLabel = "agent's claim"
)

// MaxClaimText is how many bytes a claim's answer and its words may each hold; longer text
// is cut when recorded and refused on import.
const MaxClaimText = 4 << 10

// Claim is what the agent that drove an attempt said about it at the end: done or not, the
// answer it gave if the task asked for one, and its words. It is evidence of the agent's
// belief, never of the task's effect: the gate decides, and the claim is marked wrong where
// it disagrees with the ground truth.
type Claim struct {
	Done bool `json:"done"`
	// Answer is the agent's answer to the task, when it gave one.
	Answer string `json:"answer,omitempty"`
	// Source is who made the claim.
	Source ClaimSource `json:"source"`
	// Words are the agent's own words with the claim (a summary, a reason); empty for none.
	Words string `json:"words,omitempty"`
}

// Claimant is a Planner that speaks for an agent which claims an outcome: once the attempt
// has ended, Claim returns what the agent said, or nil when the planner makes no claim.
type Claimant interface {
	Claim() *Claim
}

// Bounded returns c with its answer and words cut to MaxClaimText bytes each (on a rune
// boundary) and every given secret masked in them.
func (c Claim) Bounded(secrets []string) Claim {
	c.Answer = cutText(maskSecrets(c.Answer, secrets), MaxClaimText)
	c.Words = cutText(maskSecrets(c.Words, secrets), MaxClaimText)
	return c
}

// Validate says what is wrong with a claim read from elsewhere (a run file): an unknown
// source, or an answer or words over MaxClaimText bytes.
func (c Claim) Validate() error {
	known := false
	for _, s := range ClaimSources {
		known = known || c.Source == s
	}
	var errs []error
	if !known {
		errs = append(errs, fmt.Errorf("source %q is none of %v", c.Source, ClaimSources))
	}
	if len(c.Answer) > MaxClaimText {
		errs = append(errs, fmt.Errorf("answer: %d bytes, over the %d a claim's answer may hold", len(c.Answer), MaxClaimText))
	}
	if len(c.Words) > MaxClaimText {
		errs = append(errs, fmt.Errorf("words: %d bytes, over the %d a claim's words may hold", len(c.Words), MaxClaimText))
	}
	return errors.Join(errs...)
}

// Signal is the claim as a signal beside the task's own: done when the agent said done,
// with what it said as the evidence.
func (c Claim) Signal() Signal {
	var b strings.Builder
	who := map[ClaimSource]string{ClaimMCP: "the agent (over MCP)", ClaimProcess: "the agent process", ClaimPlanner: "the planner"}[c.Source]
	if who == "" {
		who = "the agent"
	}
	if c.Done {
		b.WriteString(who + " said done")
	} else {
		b.WriteString(who + " did not say done")
	}
	if c.Answer != "" {
		fmt.Fprintf(&b, "; its answer: %q", c.Answer)
	}
	if c.Words != "" {
		fmt.Fprintf(&b, "; its words: %q", c.Words)
	}
	return Signal{ID: ClaimID, Label: ClaimLabel, Verdict: Verdict{Done: c.Done, Evidence: b.String()}}
}

// Judged computes ev's verdicts with j and, when ev carries the agent's claim, adds it as
// the last signal, so Verdicts.Wrong marks it where it disagrees with the ground truth. The
// runner and import both judge through it: the claim is judged the same live and on import.
func Judged(j Judge, ev Evidence) (Verdicts, error) {
	v, err := j.Judge(ev)
	if err != nil || ev.Claim == nil {
		return v, err
	}
	v.Signals = append(v.Signals, ev.Claim.Signal())
	return v, nil
}

// cutText cuts s to at most n bytes, dropping a rune cut in two.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
