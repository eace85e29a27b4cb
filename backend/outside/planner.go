package outside

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"observatory/backend/agent"
)

// DefaultTimeLimit is how long an agent may run when its command sets no time limit.
const DefaultTimeLimit = 10 * time.Minute

// lateInputs bounds the wait for the inputs the page's recorder counted once the agent has
// exited (see agent.Handover.InputsMade), so its last click is recorded before the gate is
// asked; they are already on their way, so the wait is short unless the machine is busy.
const lateInputs = time.Second

// Command is an outside agent: the program to run for each attempt, and its limits.
type Command struct {
	// Argv is the program and its arguments.
	Argv []string
	// Dir is the folder it runs in; empty is Observatory's own.
	Dir string
	// TimeLimit ends an agent still running after it, exhausted; 0 is DefaultTimeLimit.
	TimeLimit time.Duration
	// Intent and TaskFile are handed to the agent (OBSERVATORY_INTENT, OBSERVATORY_TASK_FILE).
	Intent, TaskFile string
	// Inherit says which of Observatory's environment variables the agent inherits.
	Inherit Inherit
	// LogDir is where each attempt's agent log, <attempt>.agent.log, is written once it has
	// ended: the last MaxLog bytes of the agent's stdout and stderr. Empty keeps none.
	LogDir string
	// User is the OS user the agent runs as (Observatory must run as root to switch); empty
	// is Observatory's own. Another user cannot read the data folder nor reach the runs' live
	// channel: the isolation a same-user agent lacks (see docs/security.md).
	User string
}

// Planner is the planner of one attempt driven by an outside agent process. It proposes
// nothing: it starts the process once the page is at the start URL, hands it the browser's
// DevTools endpoint, and passes each input observed in the page to the executor as an
// observed step, until the process exits (the agent's end) or the attempt ends, which stops
// the process and everything it started.
type Planner struct {
	cmd     Command
	attempt string
	page    agent.Handover

	mu      sync.Mutex
	proc    *process
	inputs  <-chan agent.Input
	claimTo string // the claim file's path
	started bool
	began   time.Time

	// ahead is the next input, taken from inputs to be the last one's after (see Following);
	// taken counts the inputs taken. Both are the executor's alone.
	ahead *agent.Input
	taken int
}

var (
	_ agent.Driven     = (*Planner)(nil)
	_ agent.Claimant   = (*Planner)(nil)
	_ agent.Unseen     = (*Planner)(nil)
	_ agent.InputAhead = (*Planner)(nil)
)

// New is the planner of attempt (its slug) run by cmd.
func New(cmd Command, attempt string) *Planner { return &Planner{cmd: cmd, attempt: attempt} }

// Bind takes the attempt's page, which must offer a DevTools endpoint (agent.Handover).
func (p *Planner) Bind(page agent.Page) {
	if h, ok := page.(agent.Handover); ok {
		p.page = h
	}
}

// HeldMethods are the methods of the requests its pages send that wait for the user's
// approval when the task's safeguards require approval: those that change state.
func (p *Planner) HeldMethods() []string { return agent.HeldMethods }

// Next starts the agent on its first call, then returns its next observed input, or the
// agent's end once it has exited with status 0. An agent that exits with another status
// (a crash), outlives its time limit or cannot start ends the attempt with an error saying so.
func (p *Planner) Next(ctx context.Context, obs agent.Sample, _ []agent.Step) (agent.Proposal, error) {
	if err := p.startOnce(ctx, obs.URL); err != nil {
		return agent.Proposal{}, err
	}
	if in := p.ahead; in != nil {
		p.ahead = nil
		return observed(*in), nil
	}
	limit := p.cmd.TimeLimit
	if limit <= 0 {
		limit = DefaultTimeLimit
	}
	timer := time.NewTimer(time.Until(p.deadline(limit)))
	defer timer.Stop()
	select {
	case in, ok := <-p.inputs:
		if ok {
			p.taken++
			return observed(in), nil
		}
		return agent.Proposal{}, context.Cause(ctx)
	case <-p.proc.done:
	case <-timer.C:
		p.proc.terminate()
		return agent.Proposal{}, overTime{limit}
	case <-ctx.Done():
		return agent.Proposal{}, context.Cause(ctx)
	}
	if made, _ := p.page.InputsMade(ctx); made > p.taken { // its last inputs, on their way from the page
		select {
		case in, ok := <-p.inputs:
			if ok {
				p.taken++
				return observed(in), nil
			}
		case <-time.After(lateInputs):
		}
	}
	if code := p.proc.exitCode(); code != 0 {
		return agent.Proposal{}, fmt.Errorf("the agent process exited with status %d%s", code, lastWords(p.proc.log.String()))
	}
	return agent.Proposal{End: true, Reason: "the agent process exited with status 0"}, nil
}

// Following is the input made after the one Next returned last, when it was made before the
// call; Next returns it next.
func (p *Planner) Following(ctx context.Context) *agent.Input {
	if p.ahead != nil || p.inputs == nil {
		return p.ahead
	}
	made, typing := p.page.InputsMade(ctx)
	if made <= p.taken {
		return typing // under way: its time and the page then, the input itself once it ends
	}
	select { // it is on its way: the page's recorder counted it
	case in, ok := <-p.inputs:
		if ok {
			p.taken++
			p.ahead = &in
		}
	case <-ctx.Done():
	}
	return p.ahead
}

// overTime ends an attempt whose agent outlived its time limit: exhausted (errors.Is
// agent.ErrExhausted), in words about the agent, which planned nothing.
type overTime struct{ limit time.Duration }

func (e overTime) Error() string {
	return fmt.Sprintf("the agent was still running after its time limit of %s and was stopped", e.limit)
}

// Is makes the attempt end exhausted.
func (e overTime) Is(target error) bool { return target == agent.ErrExhausted }

// observed is the proposal that records in as an observed step.
func observed(in agent.Input) agent.Proposal {
	return agent.Proposal{Action: in.Action(), Observed: &in}
}

// deadline is when the agent's time limit runs out.
func (p *Planner) deadline(limit time.Duration) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.began.Add(limit)
}

// startOnce starts watching the page and the agent, the first time only. The agent is
// stopped, with all it started, as soon as ctx (the attempt) ends.
func (p *Planner) startOnce(ctx context.Context, startURL string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started {
		if p.proc == nil {
			return errors.New("the agent process did not start")
		}
		return nil
	}
	p.started = true
	if p.page == nil || p.page.DevToolsURL() == "" {
		return errors.New("the browser offers no DevTools endpoint to hand the agent (launch it here, or give a --cdp endpoint)")
	}
	inputs, err := p.page.WatchInputs(ctx)
	if err != nil {
		return err
	}
	wsURL, err := webSocketURL(ctx, p.page.DevToolsURL())
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "observatory-agent-")
	if err != nil {
		return fmt.Errorf("make the agent's claim folder: %w", err)
	}
	p.claimTo = filepath.Join(dir, "claim.json")
	env := []string{
		"OBSERVATORY_CDP_URL=" + p.page.DevToolsURL(),
		"OBSERVATORY_WS_ENDPOINT=" + wsURL,
		"OBSERVATORY_START_URL=" + startURL,
		"OBSERVATORY_INTENT=" + p.cmd.Intent,
		"OBSERVATORY_ATTEMPT=" + p.attempt,
		"OBSERVATORY_TASK_FILE=" + p.cmd.TaskFile,
		"OBSERVATORY_CLAIM_FILE=" + p.claimTo,
	}
	proc, err := start(p.cmd.Argv, p.cmd.Dir, p.cmd.Inherit.environment(os.Environ(), env), p.cmd.User, dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return err
	}
	p.began = time.Now()
	p.proc, p.inputs = proc, inputs
	go func() {
		select {
		case <-ctx.Done():
		case <-proc.done:
		}
		proc.terminate() // nothing it started outlives the attempt
	}()
	return nil
}

// Ended waits until the agent and all it started have stopped, writes its log into LogDir and
// removes its claim folder.
func (p *Planner) Ended(agent.Attempt) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.proc != nil {
		p.proc.terminate()
		if p.cmd.LogDir != "" && os.MkdirAll(p.cmd.LogDir, 0o755) == nil {
			_ = os.WriteFile(filepath.Join(p.cmd.LogDir, p.attempt+".agent.log"), []byte(p.proc.log.String()), 0o644)
		}
	}
	if p.claimTo != "" {
		_ = os.RemoveAll(filepath.Dir(p.claimTo))
	}
}

// Claim is what the agent said of its work once it has stopped: the claim it wrote to
// $OBSERVATORY_CLAIM_FILE, else its last stdout line when that is a claim ({"done": ...,
// "answer": ...}), else its exit status (0 says done). Nil when it never ran.
func (p *Planner) Claim() *agent.Claim {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.proc == nil {
		return nil
	}
	p.proc.terminate()
	code := p.proc.exitCode()
	words := fmt.Sprintf("exit status %d", code)
	if code == -1 {
		words = "stopped by Observatory or a signal"
	}
	if b, err := os.ReadFile(p.claimTo); err == nil {
		if c, ok := parseClaim(string(b)); ok {
			c.Words = joinWords(c.Words, words)
			return c
		}
	}
	if c, ok := parseClaim(p.proc.out.lastLine()); ok {
		c.Words = joinWords(c.Words, words)
		return c
	}
	return &agent.Claim{Done: code == 0, Source: agent.ClaimProcess, Words: words}
}

// parseClaim reads {"done": bool, "answer": string, "words": string}; false for anything else.
func parseClaim(s string) (*agent.Claim, bool) {
	var c struct {
		Done   *bool  `json:"done"`
		Answer any    `json:"answer"`
		Words  string `json:"words"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &c); err != nil || c.Done == nil {
		return nil, false
	}
	answer := ""
	switch a := c.Answer.(type) {
	case nil:
	case string:
		answer = a
	default:
		b, _ := json.Marshal(a)
		answer = string(b)
	}
	return &agent.Claim{Done: *c.Done, Answer: answer, Source: agent.ClaimProcess, Words: c.Words}, true
}

// joinWords is the agent's words followed by how it exited.
func joinWords(words, exit string) string {
	if words == "" {
		return exit
	}
	return words + "; " + exit
}

// lastWords is ": " and what log says ended the agent, for a message; empty for none.
func lastWords(log string) string {
	t := &tail{max: MaxLog}
	_, _ = t.Write([]byte(log))
	if l := thrown(t.String()); l != "" {
		return ": " + l
	}
	return ""
}

// thrown is the line of log that names what ended the process: the header of the last error
// with a stack trace (Node's "TypeError: ..." above its "    at ..." lines), with the
// runtime's own trailers ("Node.js v20.19.2", Node's hint on --trace-uncaught) left out;
// otherwise the last line (Python's traceback ends with its error).
func thrown(log string) string {
	var lines []string
	for l := range strings.Lines(log) {
		if l = strings.TrimRight(l, " \t\r\n"); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	for len(lines) > 0 && runtimeTrailer(strings.TrimSpace(lines[len(lines)-1])) {
		lines = lines[:len(lines)-1]
	}
	for i := len(lines) - 2; i >= 0; i-- {
		if !stackLine(lines[i]) && stackLine(lines[i+1]) {
			return strings.TrimSpace(lines[i])
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// stackLine is a line of a JavaScript stack trace.
func stackLine(l string) bool {
	return strings.HasPrefix(strings.TrimSpace(l), "at ") && l != strings.TrimSpace(l)
}

// runtimeTrailer is a line Node prints after an uncaught error: its version, or a hint.
func runtimeTrailer(l string) bool {
	return strings.HasPrefix(l, "Node.js v") || strings.HasPrefix(l, "(Use `node --trace-")
}
