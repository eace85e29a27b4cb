package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// watchingPage is a holdingPage that records its traffic: each Traffic hands over what its
// page sent since the last call.
type watchingPage struct {
	holdingPage
	sent []agent.Request
}

func (p *watchingPage) Traffic(time.Time, bool) agent.Traffic {
	t := agent.Traffic{Requests: p.sent}
	p.sent = nil
	return t
}

// send is the page sending a request of method: held for approval when the page holds that
// method, and refused at the network when not approved.
func (p *watchingPage) send(method string) {
	went := p.holdingPage.send(agent.HeldRequest{Method: method, URL: "http://lab/api/save", Origin: "http://lab"})
	q := agent.Request{Method: method, URL: "http://lab/api/save", Status: 200}
	if !went {
		q = agent.Request{Method: method, URL: "http://lab/api/save", Failure: "held and not approved", Refused: true}
	}
	p.sent = append(p.sent, q)
}

// lateAgent is an outside agent that clicks once; its page then sends a request of method
// (none for "") after that last input, and the agent ends: with end, or with status 0.
type lateAgent struct {
	page   *watchingPage
	method string
	end    error
	n      int
}

func (a *lateAgent) Next(context.Context, agent.Sample, []agent.Step) (agent.Proposal, error) {
	a.n++
	if a.n == 1 {
		in := agent.Input{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Save"}, URL: "http://lab/"}
		return agent.Proposal{Action: in.Action(), Observed: &in}, nil
	}
	if a.method != "" {
		a.page.send(a.method)
	}
	if a.end != nil {
		return agent.Proposal{}, a.end
	}
	return agent.Proposal{End: true}, nil
}
func (a *lateAgent) Bind(agent.Page)       {}
func (a *lateAgent) Ended(agent.Attempt)   {}
func (a *lateAgent) HeldMethods() []string { return agent.HeldMethods }

// TestAnUnseenAgentsLastRequestsAndCrash: what an outside agent's page sends after its last
// observed input is recorded on a last step, the harness's look at the page the agent left,
// with the answer to a request held meanwhile. An agent that crashes after its page sent a
// request that may change the app's state, and that the network let through, ends ambiguous,
// saying which request; one whose request was refused, or that sent only reads, failed.
func TestAnUnseenAgentsLastRequestsAndCrash(t *testing.T) {
	approval := agent.Config{Safeguards: &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: 1000}}}
	crash := errors.New("the agent process exited with status 1")
	for _, c := range []struct {
		name     string
		cfg      agent.Config
		answer   agent.ApprovalAnswer
		method   string
		end      error
		terminal agent.Terminal
		reason   string
	}{
		{"exit after a held POST", approval, agent.AnswerApprove, "POST", nil, "", ""},
		{"crash after a POST", agent.Config{}, agent.AnswerApprove, "POST", crash, agent.Ambiguous, "sent 1 request(s) that may change the app's state, the last POST http://lab/api/save (step 2), so a commit may have crossed"},
		{"crash after a denied POST", approval, agent.AnswerDeny, "POST", crash, agent.Failed, "status 1"},
		{"crash after a GET", agent.Config{}, agent.AnswerApprove, "GET", crash, agent.Failed, "status 1"},
		{"crash after a PUT the task does not hold", agent.Config{Safeguards: &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: 1000, Methods: []string{"POST"}}}},
			agent.AnswerApprove, "PUT", crash, agent.Failed, "status 1"},
	} {
		page := &watchingPage{holdingPage: holdingPage{fakePage: fakePage{controls: controls()}}}
		a := &lateAgent{page: page, method: c.method, end: c.end}
		out := (&agent.Executor{Approver: always(c.answer)}).Run(context.Background(), page, agent.Job{Env: &fakeLab{}, Planner: a, Config: c.cfg}, agent.Hooks{})
		if len(out.Steps) != 2 || out.Steps[0].Provenance != agent.Observed || out.Steps[1].Action.Kind != agent.ActVerify || out.Steps[1].Provenance != agent.Proposed {
			t.Fatalf("%s: steps %+v, want the observed click and the look at the page the agent left", c.name, out.Steps)
		}
		last := out.Steps[1]
		if len(last.Requests) != 1 || last.Requests[0].Method != c.method {
			t.Errorf("%s: the last step's requests %+v, want the %s sent after the last input", c.name, last.Requests, c.method)
		}
		if c.cfg.Safeguards != nil && c.method == "POST" && (len(last.Approvals) != 1 || last.Approvals[0].Answer != c.answer || last.Approvals[0].Request.Step != 1) {
			t.Errorf("%s: the last step's approvals %+v, want the %s asked for its POST", c.name, last.Approvals, c.answer)
		}
		if c.terminal != "" && (out.Terminal != c.terminal || !strings.Contains(out.Reason, c.reason)) {
			t.Errorf("%s: %s (%s), want %s with %q", c.name, out.Terminal, out.Reason, c.terminal, c.reason)
		}
	}
}

// TestMutationsAreTheRequestsThatMayHaveCommitted checks the one rule by which an agent acting
// unseen may have crossed a commit: a request of a held method the network let through.
func TestMutationsAreTheRequestsThatMayHaveCommitted(t *testing.T) {
	step := func(i int, qs ...agent.Request) agent.Step {
		return agent.Step{Index: i, Traffic: agent.Traffic{Requests: qs}}
	}
	get := agent.Request{Method: "GET", URL: "http://lab/api/state"}
	post := agent.Request{Method: "post", URL: "http://lab/api/save"}
	refused := agent.Request{Method: "POST", URL: "http://elsewhere/x", Refused: true}
	put := agent.Request{Method: "PUT", URL: "http://lab/api/item"}
	onlyPost := agent.Config{Safeguards: &agent.Safeguards{Approval: &agent.ApprovalSpec{Methods: []string{"POST"}}}}
	for _, tt := range []struct {
		name  string
		cfg   agent.Config
		steps []agent.Step
		n     int
		last  string
		step  int
	}{
		{"reads only", agent.Config{}, []agent.Step{step(0, get)}, 0, "", 0},
		{"a post refused before it left", agent.Config{}, []agent.Step{step(0, refused)}, 0, "", 0},
		{"a post let through, any case", agent.Config{}, []agent.Step{step(0, get), step(1, post, get)}, 1, post.URL, 1},
		{"the last of several", agent.Config{}, []agent.Step{step(0, post), step(1, put)}, 2, put.URL, 1},
		{"a method the task does not hold", onlyPost, []agent.Step{step(0, put)}, 0, "", 0},
	} {
		n, last, at := tt.cfg.Mutations(tt.steps)
		if n != tt.n || last.URL != tt.last || at != tt.step {
			t.Errorf("%s: %d, last %q at step %d; want %d, %q at %d", tt.name, n, last.URL, at, tt.n, tt.last, tt.step)
		}
	}
}

// quickAgent is an outside agent whose inputs follow each other before the page is looked at:
// each input carries the page as it was read at it, and the next is known (InputAhead) once
// the step before it is recorded.
type quickAgent struct {
	inputs []agent.Input
	n      int
}

func (a *quickAgent) Next(context.Context, agent.Sample, []agent.Step) (agent.Proposal, error) {
	if a.n == len(a.inputs) {
		return agent.Proposal{End: true}, nil
	}
	in := a.inputs[a.n]
	a.n++
	return agent.Proposal{Action: in.Action(), Observed: &in}, nil
}

func (a *quickAgent) Following(context.Context) *agent.Input {
	if a.n == len(a.inputs) {
		return nil
	}
	return &a.inputs[a.n]
}
func (a *quickAgent) Bind(agent.Page)       {}
func (a *quickAgent) Ended(agent.Attempt)   {}
func (a *quickAgent) HeldMethods() []string { return agent.HeldMethods }

// TestObservedEvidenceIsKeyedOnTime: an observed step's before is the page as read at its
// input, its after the page as the next input found it (the same sample, numbered once);
// when the next input was made in another tab, the look the harness took says it may be late.
func TestObservedEvidenceIsKeyedOnTime(t *testing.T) {
	at := time.Now().Add(time.Second)
	read := func(title string) *agent.Sample { return &agent.Sample{URL: "http://lab/", Title: title} }
	click := func(name string, ms int, before *agent.Sample, tab int) agent.Input {
		return agent.Input{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: name}, At: at.Add(time.Duration(ms) * time.Millisecond), Before: before, Tab: tab}
	}
	a := &quickAgent{inputs: []agent.Input{click("Open", 0, read("closed"), 0), click("Save", 40, read("open"), 0), click("Elsewhere", 50, nil, 1)}}
	page := &watchingPage{holdingPage: holdingPage{fakePage: fakePage{controls: controls()}}}
	out := (&agent.Executor{}).Run(context.Background(), page, agent.Job{Env: &fakeLab{}, Planner: a}, agent.Hooks{})
	if len(out.Steps) < 3 {
		t.Fatalf("steps %+v", out.Steps)
	}
	open, save, other := out.Steps[0], out.Steps[1], out.Steps[2]
	if open.Before.Title != "closed" || open.After.Title != "open" || open.After.Seq != save.Before.Seq || open.Evidence != "" {
		t.Errorf("the first step: before %q, after %q (seq %d, the next's before %d), evidence %q", open.Before.Title, open.After.Title, open.After.Seq, save.Before.Seq, open.Evidence)
	}
	if open.DurationMS != 40 || save.StartMS-open.StartMS != 40 {
		t.Errorf("the first step lasts %d ms, the next starts %d ms later; want 40", open.DurationMS, save.StartMS-open.StartMS)
	}
	if !strings.HasPrefix(save.Evidence, "looked late: the page may already show the next input's effects") {
		t.Errorf("the step followed by an input in another tab: evidence %q", save.Evidence)
	}
	if !strings.HasPrefix(other.Evidence, "looked late: the page before this input could not be read") {
		t.Errorf("the step whose before was not read: evidence %q", other.Evidence)
	}
}
