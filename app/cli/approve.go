package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/mattn/go-isatty"

	"observatory/backend/agent"
)

// Values of --approve.
const (
	approveAsk  = "ask"
	approveDeny = "deny"
	approveHold = "hold"
)

// approverFor is each attempt's approver under --approve: ask prompts on the terminal, deny
// and hold answer at once. Without the flag it asks when standard input is a terminal and
// holds otherwise, so a run nobody watches never sends on its own.
func approverFor(mode string, env Env) (func(agent.AttemptSpec) agent.Approver, error) {
	tty, isTTY := env.Stdin.(*os.File)
	isTTY = isTTY && (isatty.IsTerminal(tty.Fd()) || isatty.IsCygwinTerminal(tty.Fd()))
	if mode == "" {
		mode = approveHold
		if isTTY {
			mode = approveAsk
		}
	}
	switch mode {
	case approveDeny:
		return fixedAnswer(agent.AnswerDeny), nil
	case approveHold:
		return fixedAnswer(agent.AnswerNone), nil
	case approveAsk:
		if !isTTY {
			return nil, fmt.Errorf("--approve ask needs a terminal on standard input; use deny or hold")
		}
		t := &terminal{in: tty, out: env.Stderr}
		return func(spec agent.AttemptSpec) agent.Approver { return prompt{t, spec.Slug} }, nil
	}
	return nil, fmt.Errorf("--approve %q: want %s, %s or %s", mode, approveAsk, approveDeny, approveHold)
}

// fixed answers every request the same way, at once.
type fixed agent.ApprovalAnswer

func (f fixed) Approve(context.Context, agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	return agent.ApprovalAnswer(f), nil
}

func fixedAnswer(a agent.ApprovalAnswer) func(agent.AttemptSpec) agent.Approver {
	return func(agent.AttemptSpec) agent.Approver { return fixed(a) }
}

// terminal asks the user on a terminal, one question at a time however many attempts run.
// Only a line typed after the question counts: anything typed before it is discarded.
type terminal struct {
	in  *os.File
	out io.Writer

	mu    sync.Mutex // one question at a time
	start sync.Once
	lines chan string // closed at the end of input
}

// prompt is the terminal as one attempt's approver.
type prompt struct {
	t    *terminal
	slug string
}

func (p prompt) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	return p.t.ask(ctx, p.slug, req)
}

// read feeds the lines of the terminal to t.lines until its input ends.
func (t *terminal) read() {
	t.lines = make(chan string)
	go func() {
		defer close(t.lines)
		sc := bufio.NewScanner(t.in)
		for sc.Scan() {
			t.lines <- sc.Text()
		}
	}()
}

// ask shows req and waits for y or n, until ctx ends.
func (t *terminal) ask(ctx context.Context, slug string, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.start.Do(t.read)
	t.discardTypeAhead()
	fmt.Fprintf(t.out, "\n%s", card(slug, req))
	for {
		fmt.Fprint(t.out, "Approve? [y/n] ")
		select {
		case line, ok := <-t.lines:
			if !ok {
				fmt.Fprintln(t.out, "(input closed: held)")
				return agent.AnswerNone, errors.New("the terminal's input closed")
			}
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "y", "yes", "approve":
				return agent.AnswerApprove, nil
			case "n", "no", "deny":
				return agent.AnswerDeny, nil
			}
			fmt.Fprintln(t.out, "Answer y to approve or n to deny.")
		case <-ctx.Done():
			fmt.Fprintln(t.out, "(no answer in time: held)")
			return agent.AnswerNone, ctx.Err()
		}
	}
}

// discardTypeAhead drops lines typed before the question: they answer nothing.
func (t *terminal) discardTypeAhead() {
	for {
		select {
		case _, ok := <-t.lines:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

// card states an approval request in the user's words.
func card(slug string, req agent.ApprovalRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Approval needed: %s, step %d: %s\n", slug, req.Step+1, req.Action)
	if req.Again != "" {
		fmt.Fprintf(&b, "  Your last approval is void: %s.\n", req.Again)
	}
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "  %-13s %s\n", k+":", v)
		}
	}
	row("control", req.Target)
	row("recipient", req.Recipient)
	row("amount", req.Amount)
	for _, f := range req.Data {
		row(f.Name, fmt.Sprintf("%q", f.Value))
	}
	row("permanence", req.Permanence)
	row("page", req.URL)
	row("screenshot", req.Screenshot)
	return b.String()
}
