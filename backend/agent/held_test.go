package agent_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// holdingPage is a fake page whose network holds requests: send plays the page sending one.
type holdingPage struct {
	fakePage
	methods []string
	ask     func(context.Context, agent.HeldRequest) bool
}

func (p *holdingPage) HoldRequests(methods []string, ask func(context.Context, agent.HeldRequest) bool) error {
	p.methods, p.ask = methods, ask
	return nil
}

// send is the page sending r: whether it went through; true when its method is not held.
func (p *holdingPage) send(r agent.HeldRequest) bool {
	return p.ask == nil || !slices.Contains(p.methods, r.Method) || p.ask(context.Background(), r)
}

// unseenAgent is an outside agent: it clicks Save, which sends the page's POST, then ends.
type unseenAgent struct {
	page *holdingPage
	sent []bool // what each POST came to
	n    int
}

func (a *unseenAgent) Next(context.Context, agent.Sample, []agent.Step) (agent.Proposal, error) {
	a.n++
	if a.n > 1 {
		return agent.Proposal{End: true}, nil
	}
	a.sent = append(a.sent, a.page.send(agent.HeldRequest{Method: "POST", URL: "http://lab/api/save?key=s3cret", Origin: "http://lab", Body: `{"title":"s3cret plan"}`}))
	in := agent.Input{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Save"}, URL: "http://lab/"}
	return agent.Proposal{Action: in.Action(), Observed: &in}, nil
}
func (a *unseenAgent) Bind(agent.Page)       {}
func (a *unseenAgent) Ended(agent.Attempt)   {}
func (a *unseenAgent) HeldMethods() []string { return agent.HeldMethods }

// secretsLab is a lab with one declared secret.
type secretsLab struct{ fakeLab }

func (secretsLab) Secrets() []string { return []string{"s3cret"} }

// TestAnUnseenAgentsRequestsWaitForApproval: under safeguards that require approval, the
// outside agent's POST waits at the page's network for the approver; the answer, with what
// the request sends (secrets masked), is recorded on the observed step it came with, and a
// denial fails the request. Without the safeguard nothing is held, with one that names other
// methods the POST is not held; a page that cannot hold ends the attempt before anything runs.
func TestAnUnseenAgentsRequestsWaitForApproval(t *testing.T) {
	approval := agent.Config{Safeguards: &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: 1000}}}
	for _, c := range []struct {
		name     string
		cfg      agent.Config
		answer   agent.ApprovalAnswer
		sent     bool
		recorded agent.ApprovalAnswer
	}{
		{"denied", approval, agent.AnswerDeny, false, agent.AnswerDeny},
		{"approved", approval, agent.AnswerApprove, true, agent.AnswerApprove},
		{"held", approval, agent.AnswerNone, false, agent.AnswerNone},
		{"no safeguard", agent.Config{}, agent.AnswerDeny, true, ""},
		{"only PUT held", agent.Config{Safeguards: &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: 1000, Methods: []string{"PUT"}}}}, agent.AnswerDeny, true, ""},
	} {
		page := &holdingPage{fakePage: fakePage{controls: controls()}}
		a := &unseenAgent{page: page}
		asked := always(c.answer)
		x := &agent.Executor{Approver: asked}
		out := x.Run(context.Background(), page, agent.Job{Env: &secretsLab{}, Planner: a, Config: c.cfg}, agent.Hooks{})
		if len(a.sent) != 1 || a.sent[0] != c.sent {
			t.Errorf("%s: the POST went through %v, want %v", c.name, a.sent, c.sent)
		}
		if len(out.Steps) != 2 || out.Steps[0].Provenance != agent.Observed || out.Steps[1].Action.Kind != agent.ActVerify {
			t.Fatalf("%s: steps %+v, want the one observed click and the look at the page the agent left", c.name, out.Steps)
		}
		got := out.Steps[0].Approvals
		if c.recorded == "" {
			if len(got) != 0 || len(asked.saw) != 0 {
				t.Errorf("%s: asked %v, recorded %+v", c.name, asked.saw, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Answer != c.recorded || got[0].Request.Step != 0 || got[0].Request.Action != "POST http://lab/api/save?key="+agent.Mask ||
			len(got[0].Request.Data) != 1 || strings.Contains(got[0].Request.Data[0].Value, "s3cret") || got[0].Request.Hash != got[0].Request.DetailsHash() {
			t.Errorf("%s: recorded %+v", c.name, got)
		}
	}

	a := &unseenAgent{page: &holdingPage{}}
	plain := &fakePage{controls: controls()}
	out := (&agent.Executor{Approver: always(agent.AnswerApprove)}).Run(context.Background(), plain, agent.Job{Env: &fakeLab{}, Planner: a, Config: approval}, agent.Hooks{})
	if out.Terminal != agent.Failed || !strings.Contains(out.Reason, "cannot hold") || a.n != 0 {
		t.Errorf("a page that cannot hold: %s (%s) after %d turns, want failed before the agent runs", out.Terminal, out.Reason, a.n)
	}
}

// partlyHoldingPage holds requests, but not those to its https origin.
type partlyHoldingPage struct{ holdingPage }

func (*partlyHoldingPage) Unheld() string {
	return "the requests to https://lab were not held for approval"
}

// TestTheReasonSaysWhatThePageCouldNotHold: a page that cannot hold some of its requests (an
// https origin's, in a browser whose TLS its network cannot read) lets the attempt run, and
// its reason says which went unheld; without the safeguard nothing is said.
func TestTheReasonSaysWhatThePageCouldNotHold(t *testing.T) {
	approval := agent.Config{Safeguards: &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: 1000}}}
	for _, c := range []struct {
		cfg  agent.Config
		says bool
	}{{approval, true}, {agent.Config{}, false}} {
		page := &partlyHoldingPage{holdingPage{fakePage: fakePage{controls: controls()}}}
		a := &unseenAgent{page: &page.holdingPage}
		out := (&agent.Executor{Approver: always(agent.AnswerApprove)}).Run(context.Background(), page, agent.Job{Env: &fakeLab{}, Planner: a, Config: c.cfg}, agent.Hooks{})
		if a.n == 0 || strings.Contains(out.Reason, "https://lab were not held") != c.says {
			t.Errorf("safeguards %v: %s (%s) after %d turns", c.cfg.Safeguards != nil, out.Terminal, out.Reason, a.n)
		}
	}
}
