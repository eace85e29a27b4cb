package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/mattn/go-isatty"

	"observatory/backend/agent"
	"observatory/backend/liveproc"
)

// Values of --approve.
const (
	approveAsk  = "ask"
	approveDeny = "deny"
	approveHold = "hold"
)

// approverFor is each attempt's approver under --approve: ask puts each question to the
// terminal and to the windows (the desktop, serve) following the run on its data folder
// (window), the first answer counting; deny and hold answer at once. Without the flag it asks
// where someone is: on the terminal when standard input is one, in the windows when one
// watches as the question comes; with neither it holds, so a run nobody watches never sends
// on its own.
func approverFor(mode string, env Env, window *liveproc.Host) (func(agent.AttemptSpec) agent.Approver, error) {
	return approverOn(mode, stdinTerminal(env), windowsOf(window))
}

// windowsOf is h as runWindows: nil, not a nil *liveproc.Host, when the run is not offered.
func windowsOf(h *liveproc.Host) runWindows {
	if h == nil {
		return nil
	}
	return h
}

// runWindows is the windows following a run (a *liveproc.Host). Approver asks them and also
// (the terminal, or nil), taking the first answer of either; also's question is closed with
// the cause liveproc.ErrAnsweredElsewhere when a window answers first.
// Refused takes the refusals of the agent's side since the last question closed.
type runWindows interface {
	Watched() bool
	Approver(slug string, also agent.Approver) agent.Approver
	Refused() []agent.Refusal
}

// approverOn is approverFor asking on t, nil when standard input is no terminal, and in
// window, nil when the run is not offered to windows.
func approverOn(mode string, t *terminal, window runWindows) (func(agent.AttemptSpec) agent.Approver, error) {
	switch mode {
	case approveDeny:
		return fixedAnswer(agent.AnswerDeny), nil
	case approveHold:
		return fixedAnswer(agent.AnswerNone), nil
	case approveAsk, "":
		if mode == approveAsk && t == nil && window == nil {
			return nil, fmt.Errorf("--approve ask needs a terminal on standard input or a window following the run; use deny or hold")
		}
		return func(spec agent.AttemptSpec) agent.Approver {
			return firstAnswer{t: t, window: window, slug: spec.Slug, wait: mode == approveAsk}
		}, nil
	}
	return nil, fmt.Errorf("--approve %q: want %s, %s or %s", mode, approveAsk, approveDeny, approveHold)
}

// firstAnswer asks the terminal (if any) and the windows following the run (if any) at once;
// the first to approve or deny answers, and the other's question closes. wait asks the windows
// even when none watches yet (one may open within the time limit); otherwise a question no
// terminal and no window can answer is held at once.
type firstAnswer struct {
	t      *terminal
	window runWindows
	slug   string
	wait   bool
}

func (f firstAnswer) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	got, err := f.Answered(ctx, req)
	return got.Answer, err
}

// Answered is Approve with who answered, and the agent's side refused (an agent.Witness).
func (f firstAnswer) Answered(ctx context.Context, req agent.ApprovalRequest) (agent.Answered, error) {
	var term agent.Approver
	if f.t != nil {
		term = prompt{f.t, f.slug}
	}
	switch {
	case f.window != nil && (f.wait || f.t != nil || f.window.Watched()):
		// the run's windows take the first answer, theirs or the terminal's, so that the answer
		// a window is told was taken is the one the run takes
		return agent.AnswerOf(ctx, f.window.Approver(f.slug, term), req)
	case term != nil: // not offered to windows: nobody else can try
		return agent.AnswerOf(ctx, term, req)
	}
	held := agent.Answered{Answer: agent.AnswerNone, By: "nobody"}
	if f.window != nil {
		held.Refused = f.window.Refused()
	}
	return held, agent.ErrNobodyToAsk
}

// fixed answers every request the same way, at once.
type fixed agent.ApprovalAnswer

func (f fixed) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	got, err := f.Answered(ctx, req)
	return got.Answer, err
}

// Answered says the flag answered (an agent.Witness); a hold says why it was held.
func (f fixed) Answered(context.Context, agent.ApprovalRequest) (agent.Answered, error) {
	if agent.ApprovalAnswer(f) == agent.AnswerNone {
		return agent.Answered{Answer: agent.AnswerNone, By: "--approve " + approveHold}, agent.NoAnswer{Why: "--approve hold holds every request"}
	}
	return agent.Answered{Answer: agent.ApprovalAnswer(f), By: "--approve " + approveDeny}, nil
}

func fixedAnswer(a agent.ApprovalAnswer) func(agent.AttemptSpec) agent.Approver {
	return func(agent.AttemptSpec) agent.Approver { return fixed(a) }
}

// terminal asks the user on a terminal, one question at a time however many attempts run.
// Only a line typed after the question is shown counts: everything typed before it is
// discarded the moment the question appears (see lineSource).
type terminal struct {
	in  lineSource
	out io.Writer

	mu sync.Mutex // one question at a time
}

// lineSource is the terminal's input as lines. Fresh discards everything typed so far, a
// partial line included; Line returns the next whole line typed after that, waiting until ctx
// ends, and io.EOF once the input has ended. Calls never overlap.
type lineSource interface {
	Fresh() error
	Line(ctx context.Context) (string, error)
}

// prompt is the terminal as one attempt's approver.
type prompt struct {
	t    *terminal
	slug string
}

func (p prompt) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	return p.t.ask(ctx, p.slug, req)
}

// Answered says the terminal answered, when it did (an agent.Witness).
func (p prompt) Answered(ctx context.Context, req agent.ApprovalRequest) (agent.Answered, error) {
	ans, err := p.Approve(ctx, req)
	if ans == agent.AnswerApprove || ans == agent.AnswerDeny {
		return agent.Answered{Answer: ans, By: "terminal"}, err
	}
	return agent.Answered{Answer: ans}, err
}

// ask shows req and waits for y or n, until ctx ends. What was typed before the question is
// discarded right before its prompt is printed, so no line typed ahead answers it.
func (t *terminal) ask(ctx context.Context, slug string, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ctx.Err() != nil { // answered in a window, or out of time, while another question was up
		return agent.AnswerNone, ctx.Err()
	}
	fmt.Fprintf(t.out, "\n%s", card(slug, req))
	if err := t.in.Fresh(); err != nil {
		fmt.Fprintln(t.out, "(the terminal's type-ahead cannot be discarded: held)")
		return agent.AnswerNone, fmt.Errorf("discard what was typed before the question: %w", err)
	}
	for {
		fmt.Fprint(t.out, "Approve? [y/n] ")
		line, err := t.in.Line(ctx)
		switch {
		case errors.Is(err, io.EOF):
			fmt.Fprintln(t.out, "(input closed: held)")
			return agent.AnswerNone, errors.New("the terminal's input closed")
		case errors.Is(context.Cause(ctx), liveproc.ErrAnsweredElsewhere):
			fmt.Fprintln(t.out, "(answered in the window)")
			return agent.AnswerNone, ctx.Err()
		case ctx.Err() != nil:
			fmt.Fprintln(t.out, "(no answer in time: held)")
			return agent.AnswerNone, ctx.Err()
		case err != nil:
			fmt.Fprintf(t.out, "(the terminal cannot be read: held)\n")
			return agent.AnswerNone, fmt.Errorf("read the terminal: %w", err)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes", "approve":
			return agent.AnswerApprove, nil
		case "n", "no", "deny":
			return agent.AnswerDeny, nil
		}
		fmt.Fprintln(t.out, "Answer y to approve or n to deny.")
	}
}

// card states an approval request in the user's words, as every channel does: first what is
// not as the task asked, then why an earlier approval is void, the effect in the task's terms,
// why it is asked, and the details. Everything in it but the labels comes from the page or
// the task, so every value is escaped for the terminal: a newline, an escape sequence or a
// bidi override shows as its escape, never acts.
func card(slug string, req agent.ApprovalRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Approval needed: %s, step %d: %s\n", safe(slug), req.Step+1, safe(req.Action))
	for _, d := range req.Differences() {
		fmt.Fprintf(&b, "  NOT AS THE TASK ASKED: %s.\n", safe(d))
	}
	if req.Again != "" {
		fmt.Fprintf(&b, "  Your last approval is void: %s.\n", safe(req.Again))
	}
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "  %-13s %s\n", safe(k)+":", v)
		}
	}
	row("effect", safe(req.Effect))
	row("why asked", safe(req.Why))
	var same []string
	for _, c := range req.Compared {
		if c.Differs == "" && c.Asked != "" {
			same = append(same, safe(c.Field)+" "+safe(c.Now))
		}
	}
	row("as asked", strings.Join(same, ", "))
	row("control", safe(req.Target))
	row("recipient", safe(req.Recipient))
	row("amount", safe(req.Amount))
	row("account", safe(req.Principal))
	for _, f := range req.Facts {
		row(f.ID, safe(f.Value))
	}
	for _, f := range req.Data {
		row(f.Name, `"`+safe(f.Value)+`"`)
	}
	row("permanence", safe(req.Permanence))
	row("page", safe(req.URL))
	row("screenshot", safe(req.Screenshot))
	return b.String()
}

// confirm shows text and waits for y or n, until ctx ends; anything but a yes is a no.
// What was typed before the question is discarded, as for an approval.
func (t *terminal) confirm(ctx context.Context, text, question string) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprint(t.out, text)
	if err := t.in.Fresh(); err != nil {
		return false, fmt.Errorf("discard what was typed before the question: %w", err)
	}
	for {
		fmt.Fprintf(t.out, "%s [y/n] ", question)
		line, err := t.in.Line(ctx)
		switch {
		case errors.Is(err, io.EOF):
			return false, errors.New("the terminal's input closed")
		case ctx.Err() != nil:
			return false, ctx.Err()
		case err != nil:
			return false, fmt.Errorf("read the terminal: %w", err)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		}
		fmt.Fprintln(t.out, "Answer y or n.")
	}
}

// stdinTerminal is standard input as a terminal to ask on, or nil when it is not one.
func stdinTerminal(env Env) *terminal {
	tty, ok := env.Stdin.(*os.File)
	if !ok || !(isatty.IsTerminal(tty.Fd()) || isatty.IsCygwinTerminal(tty.Fd())) {
		return nil
	}
	return &terminal{in: newLines(tty), out: env.Stderr}
}
