package model

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"observatory/backend/agent"
)

// Hooks let a caller watch the planner. Nil hooks are skipped.
type Hooks struct {
	// Turn is called after every model turn, and once more when planning ends in an error.
	Turn func(agent.ModelTurn)
	// Wait is called once when the planner starts waiting because every model has refused,
	// and once when a model answers again; when planning ends while waiting (the time limit,
	// the context), the attempt's end is the only sign.
	Wait func(Wait)
}

// Planner is the model planner of one attempt: it asks the configured models for one tool
// call at a time and turns it into a proposal. Make one per attempt with New; the executor
// calls Next from one goroutine.
type Planner struct {
	// Now and Sleep default to the real clock; tests inject their own.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1) spreading each backoff; math/rand by default.
	Jitter func() float64
	Hooks  Hooks

	cfg       Config
	system    string
	models    []ModelConfig
	providers []provider
	state     []modelState
	cur       int // the model asked first

	conv  []message // conv[0] is the intent, word for word
	start time.Time // the first Next, from which the time limit counts
	// proposed is the tool call behind the latest proposal, made when history had proposedAt
	// steps; its result is the step that followed. carry holds results owed to calls of the
	// same reply that were not run.
	proposed   *toolCall
	proposedAt int
	carry      []toolResult
	// unresolved counts the proposals in a row whose target matched no element or several.
	unresolved int

	spentTokens int64
	spentUSD    float64
	turns       []agent.ModelTurn
	// claim is the model's done call that became a proposal, with its reason; nil until then.
	claim *agent.Claim
}

var (
	_ agent.Replanner = (*Planner)(nil)
	_ agent.Claimant  = (*Planner)(nil)
)

// New returns the planner of one attempt of task under cfg. It reads each model's key from
// its environment variable now and fails, naming the variable, when one is missing; a model
// without a base URL takes the provider's variable (OPENAI_BASE_URL, ANTHROPIC_BASE_URL), as
// the official SDKs do.
func New(task agent.Task, cfg Config) (*Planner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	models := make([]ModelConfig, len(cfg.Models))
	ps := make([]provider, len(cfg.Models))
	for i, m := range cfg.Models {
		pr, resolved, err := newProvider(m)
		if err != nil {
			return nil, err
		}
		ps[i], models[i] = pr, resolved
	}
	cfg.Models = models
	return newPlanner(task.Intent, cfg, ps), nil
}

// newPlanner builds a planner on the given providers, one per cfg.Models entry.
func newPlanner(intent string, cfg Config, ps []provider) *Planner {
	cfg = cfg.withDefaults()
	return &Planner{cfg: cfg, system: systemPrompt(cfg.Persistent), models: cfg.Models, providers: ps,
		state: make([]modelState, len(ps)), conv: []message{{Role: roleUser, Text: intent}}}
}

// Replans reports true: a held proposal goes back to the model, which proposes another.
func (p *Planner) Replans() bool { return true }

// Turns returns every model turn so far, in order.
func (p *Planner) Turns() []agent.ModelTurn {
	return append([]agent.ModelTurn(nil), p.turns...)
}

// Claim is what the model said of its attempt: done, in its words, when a done call of its
// became the attempt's verify step; else not done. The gate decides either way: the claim
// becomes the signal "agent's claim", marked wrong where it disagrees with the ground truth.
func (p *Planner) Claim() *agent.Claim {
	if p.claim != nil {
		c := *p.claim
		return &c
	}
	return &agent.Claim{Source: agent.ClaimPlanner}
}

// Next tells the model what came of its previous proposal and shows it the page, then asks
// for one tool call and returns it as a proposal. Planner-side tools (read_page_text) are
// answered here and invalid calls are sent back for correction, within bounds, as are
// targets that matched no element or several. A done call is returned as a verify step, so
// the gate decides; in persistent mode it is refused, and a reply without a tool call is a
// pause. When planning ends in an error, the proposal carries the turns of this step so far,
// the last naming the error.
func (p *Planner) Next(ctx context.Context, obs agent.Sample, history []agent.Step) (agent.Proposal, error) {
	if p.start.IsZero() {
		p.start = p.now()
	}
	step := len(history)
	from := len(p.turns)
	ended := func(err error) (agent.Proposal, error) {
		return agent.Proposal{Turns: slices.Clone(p.turns[from:])}, err
	}
	if err := p.observe(obs, history); err != nil {
		return ended(p.fail(step, obs, err))
	}
	var n tries
	for {
		a, turn, err := p.turn(ctx, step, obs)
		if err != nil {
			return ended(err)
		}
		prop, ok, err := p.handle(ctx, step, obs, a, turn, &n)
		if err != nil {
			return ended(p.fail(step, obs, err))
		}
		if ok {
			prop.Turns = slices.Clone(p.turns[from:])
			return prop, nil
		}
	}
}

// tries counts what one step has cost beyond a plain answer.
type tries struct {
	corrections int // invalid calls and replies without one, in a row
	local       int // read_page_text calls answered
}

// turn compacts the conversation if it must, asks the models and appends the reply. The turn
// it returns is filled in but not yet recorded; a failure is recorded here.
func (p *Planner) turn(ctx context.Context, step int, obs agent.Sample) (answer, agent.ModelTurn, error) {
	var notes []string
	compaction := p.compact()
	if compaction != nil {
		notes = append(notes, fmt.Sprintf("compacted %d messages: ~%d → ~%d tokens",
			compaction.Messages, compaction.TokensBefore, compaction.TokensAfter))
	}
	req := request{System: p.system, Messages: p.conv, Tools: tools, MaxTokens: p.cfg.MaxOutputTokens}
	turn := agent.ModelTurn{Step: step, Messages: len(p.conv), Tokens: p.estimate(p.conv), GroundedSeq: obs.Seq, GroundedAtMS: obs.AtMS,
		Compaction: compaction}
	a, err := p.ask(ctx, req)
	turn.Notes = append(notes, a.notes...)
	if err != nil {
		turn.Error = err.Error()
		p.record(turn)
		return a, turn, err
	}
	m := p.models[a.model]
	turn.Model, turn.Text, turn.Retries = m.Name(), a.Text, a.retries
	turn.InTokens, turn.OutTokens = a.InTokens, a.OutTokens
	turn.LatencyMS, turn.CostUSD = a.latency.Milliseconds(), m.cost(a.InTokens, a.OutTokens)
	p.conv = append(p.conv, message{Role: roleAssistant, Text: a.Text, Calls: a.Calls})
	return a, turn, nil
}

// handle acts on one reply and records its turn: it returns the proposal the reply made, or
// false when the model must be asked again (its reply is answered in the conversation), or
// an error when the step's bounds are spent.
func (p *Planner) handle(ctx context.Context, step int, obs agent.Sample, a answer, turn agent.ModelTurn, n *tries) (agent.Proposal, bool, error) {
	limit := p.cfg.Recovery.Corrections
	if len(a.Calls) == 0 {
		if p.cfg.Persistent {
			turn.Notes = append(turn.Notes, "no tool call: a pause")
			p.record(turn)
			return agent.Proposal{}, false, p.pause(ctx, "You replied without a tool call, which pauses the run.")
		}
		n.corrections++
		turn.Notes = append(turn.Notes, fmt.Sprintf("no tool call: asked for one (correction %d of %d)", n.corrections, limit))
		p.record(turn)
		if n.corrections > limit {
			return agent.Proposal{}, false, fmt.Errorf("the model replied %d times in a row without a tool call", n.corrections)
		}
		p.conv = append(p.conv, message{Role: roleUser, Text: "Reply with exactly one tool call. Call done when the task is complete."})
		return agent.Proposal{}, false, nil
	}

	// Only the first call runs; the others are answered as not run with its result.
	call := a.Calls[0]
	extra := make([]toolResult, 0, len(a.Calls)-1)
	for _, c := range a.Calls[1:] {
		extra = append(extra, toolResult{CallID: c.ID, Content: "Not run: one action per turn; only the first call counts.", IsError: true})
	}
	record := func(outcome, result string) {
		turn.Calls = append(turn.Calls, agent.ModelCall{ID: call.ID, Name: call.Name, Arguments: call.Args, Outcome: outcome, Result: result})
		for i, c := range a.Calls[1:] {
			turn.Calls = append(turn.Calls, agent.ModelCall{ID: c.ID, Name: c.Name, Arguments: c.Args, Outcome: "rejected", Result: extra[i].Content})
		}
		p.record(turn)
	}
	reply := func(outcome, content string, isErr bool) {
		record(outcome, content)
		p.conv = append(p.conv, message{Role: roleUser, Results: append([]toolResult{{CallID: call.ID, Content: content, IsError: isErr}}, extra...)})
	}
	correct := func(msg string, err error) (agent.Proposal, bool, error) {
		n.corrections++
		reply("rejected", msg, true)
		if n.corrections > limit {
			return agent.Proposal{}, false, fmt.Errorf("the model made %d unusable tool calls in a row; the last: %w", n.corrections, err)
		}
		return agent.Proposal{}, false, nil
	}

	pc, err := parseCall(call)
	switch {
	case err != nil:
		return correct(err.Error()+". Correct the call.", err)
	case pc.Name == toolReadPageText && n.local >= p.cfg.Recovery.LocalCalls:
		return correct(fmt.Sprintf("read_page_text was already answered %d times for this page; act on it.", n.local),
			fmt.Errorf("it kept reading the page without acting"))
	case pc.Name == toolReadPageText:
		n.local++
		text := pageText(obs)
		record("answered", fmt.Sprintf("%d characters of page text", len(text)))
		p.conv = append(p.conv, message{Role: roleUser, Results: append([]toolResult{{CallID: call.ID, Content: text}}, extra...)})
		return agent.Proposal{}, false, nil
	case pc.Name == toolDone && p.cfg.Persistent:
		reply("refused", "Refused: this run is persistent, so it never finishes on your word. Keep working, or reply without a tool call to pause.", true)
		return agent.Proposal{}, false, p.pause(ctx, "")
	}
	reason := pc.Reason
	if reason == "" {
		reason = strings.TrimSpace(a.Text)
	}
	pc.Action.ID = fmt.Sprintf("m%d-%s", step+1, pc.Name)
	record("proposed", "")
	p.proposed, p.proposedAt, p.carry = &call, step, extra
	if pc.Name == toolDone {
		p.claim = &agent.Claim{Done: true, Source: agent.ClaimPlanner, Words: reason}
	}
	return agent.Proposal{Action: pc.Action, Reason: reason}, true, nil
}

// observe appends the user message for this step: the result of the previous proposal (and
// of any call that was not run), then the page. Only the newest message keeps a screenshot.
// It fails once more proposals in a row than Corrections named a target that did not
// resolve to exactly one element.
func (p *Planner) observe(obs agent.Sample, history []agent.Step) error {
	msg := message{Role: roleUser, Text: snapshot(obs, p.left())}
	var unresolved *agent.Step
	if p.proposed != nil {
		content, isErr := "No step was recorded for this call.", true
		if p.proposedAt < len(history) {
			s := history[p.proposedAt]
			content, isErr = stepResult(s)
			if s.Unresolved {
				unresolved = &s
			}
		}
		msg.Results = append([]toolResult{{CallID: p.proposed.ID, Content: content, IsError: isErr}}, p.carry...)
		p.proposed, p.carry = nil, nil
	}
	if p.cfg.Vision {
		for i := range p.conv {
			p.conv[i].Image = nil
		}
		msg.Image = screenshot(p.cfg.MediaDir, obs)
	}
	p.conv = append(p.conv, msg)
	if unresolved == nil {
		p.unresolved = 0
		return nil
	}
	if p.unresolved++; p.unresolved > p.cfg.Recovery.Corrections {
		return fmt.Errorf("the model named a target that did not match exactly one element %d times in a row; the last, step %d (%s): %s",
			p.unresolved, unresolved.Index+1, unresolved.Action.Description, unresolved.Error)
	}
	return nil
}

// stepResult is what the model is told about the step its call became: whether it ran, what
// policy decided and why, and how much the page changed.
func stepResult(s agent.Step) (string, bool) {
	d := s.Decision
	switch {
	case s.Unresolved:
		return fmt.Sprintf("Not run: %s. Name exactly one element: by its test_id or label, or by a role and a name that only it has, as the page lists them.", s.Error), true
	case d.Admission == agent.Hold:
		return fmt.Sprintf("Not run: policy held this %s action: %s. Propose an action for the page as it is now.", d.Class, d.Reason), true
	case d.Admission == agent.Deny:
		return fmt.Sprintf("Not run: policy denied it: %s.", d.Reason), true
	case s.Error != "":
		return fmt.Sprintf("Failed: %s.", s.Error), true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Done: %s action, allowed (%s).", d.Class, d.Reason)
	if s.Resolved != "" && s.Resolved != s.Action.Target.TextOf() {
		fmt.Fprintf(&b, " The target matched by its alias %q.", s.Resolved)
	}
	fmt.Fprintf(&b, " The page changed by %.2f (role-set Jaccard distance, 0 = same elements).", s.Distance)
	if s.After.URL != s.Before.URL {
		fmt.Fprintf(&b, " It moved to %s.", s.After.URL)
	}
	return b.String(), false
}

// pause waits Pause, then asks the model to go on, saying why it paused and the time left.
func (p *Planner) pause(ctx context.Context, why string) error {
	if err := p.limits(ctx); err != nil {
		return err
	}
	if err := p.sleep(ctx, min(p.cfg.Recovery.Pause, p.left())); err != nil {
		return err
	}
	if err := p.limits(ctx); err != nil {
		return err
	}
	text := strings.TrimSpace(fmt.Sprintf("%s Paused %s; no action ran, so the page is as last shown. Time left: %s.",
		why, p.cfg.Recovery.Pause, p.left().Round(time.Second)))
	if n := len(p.conv); n > 0 && p.conv[n-1].Role == roleUser {
		p.conv[n-1].Text = strings.TrimSpace(p.conv[n-1].Text + "\n" + text)
	} else {
		p.conv = append(p.conv, message{Role: roleUser, Text: text})
	}
	return nil
}

// fail records a turn naming the error that ends planning and returns it.
func (p *Planner) fail(step int, obs agent.Sample, err error) error {
	p.record(agent.ModelTurn{Step: step, Messages: len(p.conv), Tokens: p.estimate(p.conv), GroundedSeq: obs.Seq, GroundedAtMS: obs.AtMS,
		Error: err.Error()})
	return err
}

// record keeps a turn and tells the Turn hook.
func (p *Planner) record(t agent.ModelTurn) {
	p.turns = append(p.turns, t)
	if p.Hooks.Turn != nil {
		p.Hooks.Turn(t)
	}
}

// systemPrompt tells the model how the run works.
func systemPrompt(persistent bool) string {
	s := `You operate a web browser to carry out the user's task, one action at a time.
The first user message is the task, word for word. Each later user message shows the page as it is now: its URL and title, any alert or status notice, the form fields with their values, the interactive elements (role and accessible name), other named elements, table rows, the start of the page text, and the time left.
Reply with exactly one tool call per turn and give its reason in one sentence. Name a target by role with its exact accessible name as listed (role "button", name "Save"), or by label, test_id or text; it must match exactly one element.
Each tool result says whether your action ran, what policy decided and how much the page changed. read_page_text shows the page's full text without acting.`
	if persistent {
		return s + "\nThis run is persistent: it never ends on your word, and done is refused. Keep working while there is something to do; reply without a tool call to pause."
	}
	return s + "\nWhen the task is complete, call done. An independent check of the app's real state then decides; your claim is not the verdict."
}
