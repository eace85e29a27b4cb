package runfile

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// harnessedRun is goodRun with everything the harness records: the safeguards and retries of
// the attempt's configuration, contracts, keys, a review and a hold that goes on in its
// decisions, guidance, approvals (one void) and a reconciliation in its steps.
func harnessedRun() agent.Run {
	run := goodRun()
	a := &run.Attempts[0]
	a.Config.Retries = 1
	a.Config.Safeguards = &agent.Safeguards{
		Review:   &agent.ReviewSpec{Policy: "no figures", Reviewer: agent.ReviewerRules, Rules: []agent.ReviewRule{{Expr: "true", Reason: "always"}}, OnUnavailable: agent.OnUnavailableHold},
		Approval: &agent.ApprovalSpec{LimitMS: 1000},
	}
	open, save, verify := &a.Steps[0], &a.Steps[1], &a.Steps[2]
	open.Decision = agent.Decision{Class: agent.ClassCommit, Admission: agent.Hold, Reason: "already done", Contract: agent.ContractIrreversible,
		Why: "the control's name has an irreversible word", Key: "0123abcd", Continue: true}
	open.Guidance = "this call failed 2 times in a row the same way on this page: change approach"
	save.Decision = agent.Decision{Class: agent.ClassCommit, Admission: agent.Allow, Reason: "approved", Contract: agent.ContractIrreversible,
		Key: "4567cdef", AskUser: true, Review: &agent.Review{Reviewer: agent.ReviewerRules, Verdict: agent.ReviewClear, Reason: "no rule holds"}}
	req := agent.ApprovalRequest{Step: 1, Action: "Fill and save", Target: "button[Save]", Recipient: "alice@example.com",
		Data: []agent.Field{{Role: "textbox", Name: "To", Value: "alice@example.com"}}, Permanence: "cannot be undone", URL: "http://127.0.0.1:1/",
		Screenshot: "saves-normally/shot-0003.jpg", TargetBox: &agent.Box{X: 40, Y: 300, Width: 80, Height: 24, ViewportWidth: 1280, ViewportHeight: 720}}
	req.Hash = req.DetailsHash()
	again := req
	again.Recipient, again.Again = "alicia@example.org", "the recipient changed"
	again.Data = []agent.Field{{Role: "textbox", Name: "To", Value: "alicia@example.org"}}
	again.Hash = again.DetailsHash()
	save.Approvals = []agent.Approval{
		{Request: req, Answer: agent.AnswerApprove, AskedMS: 100, AnsweredMS: 150, Void: true, Note: "void before the commit: the recipient changed", CommitHash: again.Hash},
		{Request: again, Answer: agent.AnswerDeny, AskedMS: 160, AnsweredMS: 170, By: "window (serve, pid 4242)",
			Refused: []agent.RefusedAnswer{{By: "pid 4300 (node agent.js)", AtMS: 163, Why: "it tried to answer the run's approvals, and is the agent's side"}}},
	}
	verify.Reconciliation = &agent.Reconciliation{OpID: "op-1", Query: "GET /api/messages?op_id=op-1", Answer: `{"found":1}`, Found: 1,
		Outcome: agent.ReconciledCompleted, Retry: &agent.Action{ID: "retry", Description: "Retry", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Retry"}}}
	return run
}

// TestHarnessRecordsRoundTrip writes the harness's records into a run file, checks the file
// against the documented schema, reads it back whole, and replays it without disagreement.
func TestHarnessRecordsRoundTrip(t *testing.T) {
	run := harnessedRun()
	data := encoded(t, New(run, t0))
	if err := validateSchema(compileSchema(t, schemaPath), data); err != nil {
		t.Fatalf("the file does not validate against %s: %v", schemaPath, err)
	}
	f, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	got, want := f.Run.Attempts[0], run.Attempts[0]
	if !reflect.DeepEqual(got.Config, want.Config) {
		t.Errorf("config read back as %+v, want %+v", got.Config, want.Config)
	}
	for i := range want.Steps {
		g, w := got.Steps[i], want.Steps[i]
		if !reflect.DeepEqual(g.Decision, w.Decision) || g.Guidance != w.Guidance ||
			!reflect.DeepEqual(g.Approvals, w.Approvals) || !reflect.DeepEqual(g.Reconciliation, w.Reconciliation) {
			t.Errorf("step %d read back as %+v, want %+v", i, g, w)
		}
	}
	res, err := Replay(fakeLab{}, f)
	if err != nil || len(res.Disagreements) != 0 {
		t.Errorf("replay: %v, %+v", err, res.Disagreements)
	}
}

// lookUpLab is the fake lab with a log of look-ups its store answered.
type lookUpLab struct {
	fakeLab
	lookUps []agent.LookUp
}

func (l lookUpLab) LookUps([]agent.Event) ([]agent.LookUp, error) { return l.lookUps, nil }

// TestReplayRecomputesTheHarnessRecords tampers with the harness's records of a run file, one
// at a time, and checks that the replay flags each: a classification the action and its page
// do not give (the press on a focused Send recorded as a mere mutation among them), an
// approval whose details do not hash to its hash, an approval that claims the commit it let
// run was made on other details (or a void one on the same), a re-ask that does not state the
// details that voided the approval, a reconciliation outcome its count does not settle, and a
// count or look-up the app's log does not have. The untouched file replays without one.
func TestReplayRecomputesTheHarnessRecords(t *testing.T) {
	lab := lookUpLab{lookUps: []agent.LookUp{{OpID: "op-0", Found: 0}, {OpID: "op-1", Found: 1}}}
	tests := []struct {
		name, verdict, recomputed string
		suite                     agent.Suite
		edit                      func(a *agent.Attempt)
	}{
		{"a click on Reserve recorded as a read", "contract (step 1)", "irreversible, commit", fakeLab{}, func(a *agent.Attempt) {
			a.Steps[0].Decision.Contract, a.Steps[0].Decision.Class = agent.ContractRead, agent.ClassObserve
		}},
		{"Enter on the focused Send recorded as a mutation", "contract (step 1)", `irreversible, commit (Enter on button "Send" activates it`, fakeLab{}, func(a *agent.Attempt) {
			s := &a.Steps[0]
			s.Action = agent.Action{ID: "send", Description: "Send", Kind: agent.ActPress, Value: "Enter"}
			s.Before.Focus = &agent.Focus{Role: "button", Name: "Send"}
			s.Decision.Contract, s.Decision.Class, s.Decision.Continue = agent.ContractMutate, agent.ClassPrepare, false
		}},
		{"a recipient changed after the hash", "approval (step 2, request 1) hash", "(from the request's details)", fakeLab{}, func(a *agent.Attempt) {
			a.Steps[1].Approvals[0].Request.Recipient = "mallory@evil.example"
		}},
		{"approved, and the commit ran on other details", "approval (step 2, request 2) at the commit", "the commit ran on details nobody approved", fakeLab{}, func(a *agent.Attempt) {
			last := &a.Steps[1].Approvals[1]
			last.Answer, last.CommitHash = agent.AnswerApprove, a.Steps[1].Approvals[0].Request.Hash
		}},
		{"void, yet nothing changed", "approval (step 2, request 1) at the commit", "nothing voided it", fakeLab{}, func(a *agent.Attempt) {
			first := &a.Steps[1].Approvals[0]
			first.CommitHash = first.Request.Hash
		}},
		{"asked again with details other than those that voided it", "approval (step 2, request 2)", "but those that voided request 1", fakeLab{}, func(a *agent.Attempt) {
			again := &a.Steps[1].Approvals[1].Request
			again.Recipient = "bob@example.com"
			again.Hash = again.DetailsHash()
		}},
		{"found once, recorded as a duplicate", "reconciliation (step 3) outcome", "completed (found 1, nothing sent again)", fakeLab{}, func(a *agent.Attempt) {
			a.Steps[2].Reconciliation.Outcome = agent.ReconciledDuplicate
		}},
		{"a retry recorded, none sent", "reconciliation (step 3) outcome", "failed (found 0, nothing sent again)", fakeLab{}, func(a *agent.Attempt) {
			r := a.Steps[2].Reconciliation
			r.Found, r.Outcome = 0, agent.ReconciledRetry
		}},
		{"a count the store never answered", "reconciliation (step 3)", "the store answered 1 (the app's log)", lab, func(a *agent.Attempt) {
			r := a.Steps[2].Reconciliation
			r.Found, r.Outcome = 2, agent.ReconciledDuplicate
		}},
		{"a look-up the log does not have", "reconciliation (step 3)", "the app's log records no look-up of it", lab, func(a *agent.Attempt) {
			a.Steps[2].Reconciliation.OpID = "op-9"
		}},
	}
	replay := func(suite agent.Suite, run agent.Run) []Disagreement {
		t.Helper()
		f, err := Decode(bytes.NewReader(encoded(t, New(run, t0))))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Replay(suite, f)
		if err != nil {
			t.Fatal(err)
		}
		return res.Disagreements
	}
	if dis := replay(lab, harnessedRun()); len(dis) != 0 {
		t.Fatalf("the untouched file: %+v, want no disagreement", dis)
	}
	for _, tt := range tests {
		run := harnessedRun()
		tt.edit(&run.Attempts[0])
		dis := replay(tt.suite, run)
		if len(dis) != 1 || dis[0].Verdict != tt.verdict || !strings.Contains(dis[0].Recomputed, tt.recomputed) || dis[0].Attempt != "saves-normally" {
			t.Errorf("%s: %+v, want one disagreement on %q recomputing %q", tt.name, dis, tt.verdict, tt.recomputed)
		}
	}
}
