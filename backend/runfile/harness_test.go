package runfile

import (
	"bytes"
	"reflect"
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
		Data: []agent.Field{{Role: "textbox", Name: "To", Value: "alice@example.com"}}, Permanence: "cannot be undone", URL: "http://127.0.0.1:1/", Hash: "aa"}
	again := req
	again.Recipient, again.Hash, again.Again = "alicia@example.org", "bb", "the recipient changed"
	save.Approvals = []agent.Approval{
		{Request: req, Answer: agent.AnswerApprove, AskedMS: 100, AnsweredMS: 150, Void: true, Note: "void before the commit: the recipient changed"},
		{Request: again, Answer: agent.AnswerDeny, AskedMS: 160, AnsweredMS: 170},
	}
	verify.Reconciliation = &agent.Reconciliation{OpID: "op-1", Query: "GET /api/messages?op_id=op-1", Answer: `{"found":0}`, Found: 0,
		Outcome: agent.ReconciledRetry, Retry: &agent.Action{ID: "retry", Description: "Retry", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Retry"}}}
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
