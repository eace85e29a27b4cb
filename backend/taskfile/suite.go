package taskfile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/gate"
	"observatory/backend/oracle"
	"observatory/backend/planner"
)

// Options are what loading a task file may take from outside it.
type Options struct {
	// LookupEnv reads environment variables (base_url, SQLite paths, and when running,
	// header values, value_env and DSNs), only those Trust allows; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Trust is what the user lets the file reach beyond its own folder and origins.
	Trust Trust
	// Confirm, when set, is asked once, as the file loads, whether the task may read the
	// environment variables it reads that Trust does not allow (all of them are given, each
	// saying whether it is allowed); a yes allows them for this load. It is the user's
	// interactive yes: nil refuses them.
	Confirm func([]EnvVar) bool
	// Labs finds the built-in lab a task names; nil knows none, so a lab task is refused.
	Labs FindLab
	// judgeOnly is FromSpec's: the task ran elsewhere, so its folders are not looked for here.
	judgeOnly bool
}

// Suite is a loaded task file, ready to run or to judge. It is an agent.Suite; a task that
// runs against a lab is an agent.Replayer too, replaying the lab's event log.
type Suite interface {
	agent.Suite
	// Spec is the normalized task document as JSON (observatory.task/v1): base URL and
	// SQLite paths expanded with the values read from the environment masked, literal
	// secret values masked. A run file carries it; FromSpec rebuilds the suite from it.
	Spec() json.RawMessage
	// Planner is the scripted planner of one attempt, with values from the environment in
	// place; Plan shows them masked.
	Planner(spec agent.AttemptSpec) agent.Planner
	// Outline summarizes the task: what it checks and what it offers.
	Outline() Outline
	// Planning says who plans the attempts: the plan, or a model.
	Planning() Planning
	// Agent is the task's own agent command (agent.command) and the folder it runs in;
	// no command when it names none. It runs only when the user asks (run --agent).
	Agent() (command []string, dir string)
	// Judges are the task's model judge signals (see agent.Consulted), and JudgeModels the
	// models one of them asks.
	Judges() []agent.JudgeSpec
	JudgeModels(signal string) []ModelSpec
}

// Outline is what a task checks, for `task check` and the columns of a table.
type Outline struct {
	Name string
	// Lab is the lab the task runs against, empty for a site of the user's.
	Lab      string
	Attempts []string
	// Conditions are the gate's, Signals the weaker checks, as "id (kind): label".
	Conditions []string
	Signals    []string
	// Truth says where ground truth comes from.
	Truth string
	// Env are the environment variables the task reads, and whether the user allowed each.
	Env []EnvVar
	// Safeguards say, per attempt that has any, what its irreversible actions get:
	// "slug: review by rules (1 rule; hold when unavailable); approval of every irreversible action within 60000 ms".
	Safeguards []string
}

// Load reads and checks the task file at path (YAML, or JSON when it ends in .json).
// Relative file paths in it are relative to its folder. A refused file is an *Error.
func Load(path string, opts Options) (Suite, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Reason: err.Error()}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, &Error{File: path, Reason: err.Error()}
	}
	return Parse(path, data, filepath.Dir(path), opts)
}

// Parse checks a task file's contents; name is the file's name (its extension picks JSON
// or YAML, and errors start with it) and dir the folder its relative paths start from.
func Parse(name string, data []byte, dir string, opts Options) (Suite, error) {
	s, err := parse(name, data, dir, opts)
	if err != nil {
		return nil, located(name, err)
	}
	if s.lab != nil {
		return &labSuite{s}, nil
	}
	return s, nil
}

// FromSpec rebuilds a suite from the document Spec returned (as a run file carries it),
// with the same checks, for judging recorded evidence. It reads nothing from the
// environment and cannot start attempts; labs finds the lab a task names, whose transition
// function replays the recorded events (nil knows none, so a lab task is refused).
func FromSpec(spec json.RawMessage, labs FindLab) (Suite, error) {
	noEnv := func(string) (string, bool) { return "", false }
	s, err := parse("spec.json", spec, "", Options{LookupEnv: noEnv, Labs: labs, judgeOnly: true})
	if err != nil {
		return nil, located("task spec", err)
	}
	s.judgeOnly = true
	if s.lab != nil {
		return &labSuite{s}, nil
	}
	return s, nil
}

func parse(name string, data []byte, dir string, opts Options) (*suite, error) {
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	tree, err := documentTree(name, data)
	if err != nil {
		return nil, err
	}
	var doc Document
	if err := decode(tree, "", &doc); err != nil {
		return nil, err
	}
	s, err := build(&doc, opts, dir)
	if err != nil {
		return nil, err
	}
	if s.spec, err = json.Marshal(doc); err != nil {
		return nil, fmt.Errorf("encoding the task: %w", err)
	}
	return s, nil
}

// planStep is one scripted action and, for a secret from the environment, its variable.
type planStep struct {
	action   agent.Action
	valueEnv string
}

// signal is one weaker check: a notice, Parallax's rule, a page condition or a model judge.
type signal struct {
	id, label string
	notice    string
	// place is where the notice is shown, when the task names it; nil reads the page's own
	// announcements.
	place    *agent.NoticePlace
	parallax bool
	page     *oracle.Condition
	judge    *judge
}

// suite is a task file mapped to the domain.
type suite struct {
	task      agent.Task
	spec      json.RawMessage
	dir       string
	lookupEnv func(string) (string, bool)
	trust     Trust
	// env are the environment variables the file reads; loaded the values of those read
	// as it loaded (base_url, SQLite paths), secrets no record shows.
	env          []EnvVar
	loaded       []string
	lab          Lab
	base         *url.URL
	storageState string
	steps        []planStep
	success      []oracle.Condition
	signals      []signal
	// labTruth takes ground truth from the lab; otherwise truth holds conditions, or none
	// (the gate stands in).
	labTruth bool
	// agentCommand is the task's own agent command (agent.command); nil for none.
	agentCommand []string
	truth        []oracle.Condition
	attempts     []agent.AttemptSpec
	planning     Planning
	judgeOnly    bool
	// attemptBudgets bound every attempt (nil for none); runBudgets the run as a whole.
	attemptBudgets *agent.Budgets
	runBudgets     agent.Budgets
	// safeguards are the task's review and approval, every attempt's unless its own
	// replace them; nil for none.
	safeguards *agent.Safeguards
}

var (
	_ Suite             = (*suite)(nil)
	_ agent.Preflighted = (*suite)(nil)
	_ agent.Consulted   = (*suite)(nil)
)

// labSuite is a suite whose app is a lab: it replays the lab's event log.
type labSuite struct{ *suite }

var _ agent.Replayer = labSuite{}

// OnHost returns the suite with its lab serving the app on host, an address the browser can
// reach.
func (s labSuite) OnHost(host string) agent.Suite {
	c := *s.suite
	c.lab = s.lab.On(host)
	return &labSuite{&c}
}

// Replay validates events through the lab's transition function.
func (s labSuite) Replay(events []agent.Event) error { return s.lab.Replay(events) }

// Frames rebuilds the lab's state after each event, with the lab's own gate evaluated on
// each (the task's conditions read the live app, which a replay does not have).
func (s labSuite) Frames(events []agent.Event) ([]agent.Frame, error) {
	return s.lab.Frames(events)
}

// Task is the intent record: name, verbatim intent, start URL and origins, with the values
// read from the environment as the file loaded masked (the environment's own start URL and
// origins keep them).
func (s *suite) Task() agent.Task {
	t := s.task
	t.StartURL = s.mask(t.StartURL)
	t.Origins = slices.Clone(t.Origins)
	for i, o := range t.Origins {
		t.Origins[i] = s.mask(o)
	}
	return t
}

// mask replaces the values read from the environment as the file loaded by oracle.Mask.
func (s *suite) mask(v string) string {
	for _, sec := range s.loaded {
		v = strings.ReplaceAll(v, sec, oracle.Mask)
	}
	return v
}

// Spec is the normalized task document.
func (s *suite) Spec() json.RawMessage { return s.spec }

// Plan is the setup steps and the plan, secret values masked.
func (s *suite) Plan() agent.Plan {
	plan := make(agent.Plan, len(s.steps))
	for i, st := range s.steps {
		plan[i] = st.action.Redacted()
		plan[i].Value = s.mask(plan[i].Value)
	}
	return plan
}

// Planner follows the plan with values from the environment in place.
func (s *suite) Planner(agent.AttemptSpec) agent.Planner {
	plan := make(agent.Plan, len(s.steps))
	for i, st := range s.steps {
		plan[i] = st.action
		if st.valueEnv != "" {
			plan[i].Value, _ = s.lookupEnv(st.valueEnv) // Start refuses an unset one
		}
	}
	return planner.Scripted(plan)
}

// Attempts are the file's attempts, or one named after the task.
func (s *suite) Attempts() []agent.AttemptSpec { return s.attempts }

// Outline summarizes the task.
func (s *suite) Outline() Outline {
	o := Outline{Name: s.task.Name, Truth: "the completion gate (no ground truth of its own)", Env: slices.Clone(s.env)}
	if s.lab != nil {
		o.Lab = s.lab.Name()
	}
	for _, a := range s.attempts {
		o.Attempts = append(o.Attempts, a.Slug)
		if g := a.Config.Safeguards; g != nil {
			o.Safeguards = append(o.Safeguards, a.Slug+": "+safeguardsText(g))
		}
	}
	describe := func(c oracle.Condition) string {
		return fmt.Sprintf("%s (%s): %s", c.ID, c.Check.Kind(), c.Label)
	}
	for _, c := range s.success {
		o.Conditions = append(o.Conditions, describe(c))
	}
	for _, sg := range s.signals {
		switch {
		case sg.page != nil:
			o.Signals = append(o.Signals, describe(*sg.page))
		case sg.parallax:
			o.Signals = append(o.Signals, fmt.Sprintf("%s (parallax): %s", sg.id, sg.label))
		case sg.judge != nil:
			o.Signals = append(o.Signals, fmt.Sprintf("%s (judge, %s): %s", sg.id, sg.judge.spec.Recipe, sg.label))
		case sg.place != nil:
			o.Signals = append(o.Signals, fmt.Sprintf("%s (notice %q at %s): %s", sg.id, sg.notice, *sg.place, sg.label))
		default:
			o.Signals = append(o.Signals, fmt.Sprintf("%s (notice %q): %s", sg.id, sg.notice, sg.label))
		}
	}
	switch {
	case s.labTruth:
		o.Truth = "the " + s.lab.Name() + " lab's records"
	case len(s.truth) > 0:
		var ids []string
		for _, c := range s.truth {
			ids = append(ids, describe(c))
		}
		o.Truth = strings.Join(ids, "; ")
	}
	return o
}

// asked are the conditions whose answers are recorded: the gate's, the truth's and the
// page signals'.
func (s *suite) asked() []oracle.Condition {
	out := append(append([]oracle.Condition(nil), s.success...), s.truth...)
	for _, sg := range s.signals {
		if sg.page != nil {
			out = append(out, *sg.page)
		}
	}
	return out
}

// Judge recomputes every verdict from recorded evidence: each condition from its answer
// under the task's own expressions, signals from the steps (and page signals from their
// answers), ground truth from the lab's events, from the truth conditions, or as the gate.
// Answers for conditions the task does not ask, or two for one condition, are an error.
func (s *suite) Judge(ev agent.Evidence) (agent.Verdicts, error) {
	byID, err := s.index(ev.Answers)
	if err != nil {
		return agent.Verdicts{}, err
	}
	g := agent.NewGate(judgeAll(s.success, byID))
	v := agent.Verdicts{Gate: g}
	for _, sg := range s.signals {
		out := agent.Signal{ID: sg.id, Label: sg.label}
		switch {
		case sg.page != nil:
			out.Verdict = oracle.Judge(*sg.page, byID[sg.id])
		case sg.parallax:
			out.Verdict = gate.Parallax(ev.Steps)
		case sg.judge != nil:
			out.Verdict = agent.JudgeVerdict(byID[sg.id])
		case sg.place != nil:
			out.Verdict = gate.NoticeAt(ev.Steps, *sg.place, sg.notice)
		default:
			out.Verdict = gate.Notice(ev.Steps, sg.notice)
		}
		v.Signals = append(v.Signals, out)
	}
	switch {
	case s.labTruth:
		if v.Truth, err = s.lab.Truth(ev.Events); err != nil {
			return agent.Verdicts{}, err
		}
	case len(s.truth) > 0:
		v.Truth = truthOf(judgeAll(s.truth, byID))
	default:
		v.Truth = gateAsTruth(g)
	}
	return v, nil
}

// index maps answers to their conditions' ids.
func (s *suite) index(answers []agent.Answer) (map[string]*agent.Answer, error) {
	known := map[string]string{}
	for _, c := range s.asked() {
		known[c.ID] = c.Check.Kind()
	}
	for _, j := range s.Judges() {
		known[j.Signal] = agent.AnswerJudge
	}
	byID := make(map[string]*agent.Answer, len(answers))
	for i := range answers {
		a := &answers[i]
		switch {
		case known[a.Condition] == "":
			return nil, fmt.Errorf("an answer for %q, which task %s does not ask", a.Condition, s.task.Name)
		case (a.Kind == agent.AnswerJudge) != (known[a.Condition] == agent.AnswerJudge):
			return nil, fmt.Errorf("the answer for %q is of kind %q, which its check is not", a.Condition, a.Kind)
		case byID[a.Condition] != nil:
			return nil, fmt.Errorf("two answers for condition %q", a.Condition)
		}
		byID[a.Condition] = a
	}
	return byID, nil
}

// judgeAll judges each condition from its answer.
func judgeAll(conds []oracle.Condition, byID map[string]*agent.Answer) []agent.Condition {
	out := make([]agent.Condition, len(conds))
	for i, c := range conds {
		out[i] = agent.Condition{ID: c.ID, Label: c.Label, Verdict: oracle.Judge(c, byID[c.ID])}
	}
	return out
}

// GateAsTruthLabel names the ground truth of a task that declares none: the gate stands in.
const GateAsTruthLabel = agent.GateAsTruthLabel

// gateAsTruth is the ground truth of a task that declares none: the gate's call, and could
// not confirm when the gate could not (no check can then be called wrong).
func gateAsTruth(g agent.Gate) agent.Signal {
	v := agent.Verdict{Done: g.Done, Evidence: "the task declares no ground truth of its own, so the completion gate stands in for it"}
	if t := truthOf(g.Conditions); t.Unconfirmed != "" {
		v = agent.Unconfirmed("the completion gate stands in for the ground truth and could not confirm: " + t.Unconfirmed)
	}
	return agent.Signal{ID: "truth", Label: GateAsTruthLabel, Verdict: v}
}

// truthOf combines truth conditions: done when all hold, not done when one is known not to
// hold, and could not confirm when the rest could not be read.
func truthOf(conds []agent.Condition) agent.Signal {
	var labels, evidence, unconfirmed []string
	done, refuted := true, false
	for _, c := range conds {
		labels = append(labels, c.Label)
		evidence = append(evidence, c.Label+": "+c.Evidence)
		if !c.Done {
			done = false
			if c.Unconfirmed != "" {
				unconfirmed = append(unconfirmed, c.Label+": "+c.Unconfirmed)
			} else {
				refuted = true
			}
		}
	}
	v := agent.Verdict{Done: done, Evidence: strings.Join(evidence, "; ")}
	if !refuted && len(unconfirmed) > 0 {
		v = agent.Unconfirmed(strings.Join(unconfirmed, "; "))
	}
	return agent.Signal{ID: "truth", Label: strings.Join(labels, " and "), Verdict: v}
}

// errJudgeOnly is Start's error on a suite rebuilt from a run file.
var errJudgeOnly = errors.New("this task was rebuilt from a run file to judge it; load the task file to run it")

// Preflight says why no attempt of the task can start: it was rebuilt from a run file, or an
// environment variable it reads when running is not set.
func (s *suite) Preflight() error {
	if s.judgeOnly {
		return errJudgeOnly
	}
	_, err := s.secrets()
	return err
}

// Start brings up one attempt's environment: a fresh copy of the lab, or the user's site as
// it is, and a reader for the conditions. Environment variables the task reads must be set.
func (s *suite) Start(_ context.Context, spec agent.AttemptSpec) (agent.Environment, error) {
	if s.judgeOnly {
		return nil, errJudgeOnly
	}
	secrets, err := s.secrets()
	if err != nil {
		return nil, err
	}
	return s.start(spec, secrets)
}

// secrets are the values of every environment variable the task reads: those read as it
// loaded, and those read when it runs. One the user has not allowed, or an unset one, is an
// error naming it.
func (s *suite) secrets() ([]string, error) {
	if refused := refusedNames(s.env); len(refused) > 0 {
		return nil, fmt.Errorf("task %s %w", s.task.Name, refusedEnv(refused))
	}
	var names []string
	for _, st := range s.steps {
		if st.valueEnv != "" {
			names = append(names, st.valueEnv)
		}
	}
	for _, c := range s.asked() {
		if e, ok := c.Check.(interface{ Env() []string }); ok {
			names = append(names, e.Env()...)
		}
	}
	values := slices.Clone(s.loaded)
	for _, n := range names {
		v, ok := s.lookupEnv(n)
		if !ok {
			return nil, fmt.Errorf("task %s reads environment variable %s, which is not set", s.task.Name, n)
		}
		values = append(values, v)
	}
	return values, nil
}
