package cli

import (
	"encoding/json"
	"testing"

	"observatory/backend/browser/browsertest"
	"observatory/backend/metrics"
)

// metricsOf runs `observatory metrics --json --by by` over dir's history.
func metricsOf(t *testing.T, dir, by string) map[string]metrics.Slice {
	t.Helper()
	code, out, errOut := run(t, "metrics", "--json", "--by", by, "--data-dir", dir)
	var r metrics.Report
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
		t.Fatalf("metrics --by %s: exit %d (%v)\n%s%s", by, code, err, out, errOut)
	}
	m := map[string]metrics.Slice{}
	for _, s := range r.Slices {
		m[s.Key] = s
	}
	return m
}

// TestMetricsOverRealRuns runs the booking lab's eight attempts and the outbox lab's ten
// (harness on, approvals held without a terminal) in Chromium, then checks that `observatory
// metrics --json` gives the numbers their tables imply. Booking: three of eight saved as
// asked and completed, one wrong target (wrong-room: a record, in the wrong room), nothing
// else. Outbox: four of ten sent as asked and completed; three approvals asked (held), so a
// burden of 3/4 per completed attempt; five policy denials (the two reviews and the three
// unanswered approvals); four recovery loops (the look-ups of lost-response, dropped and
// delivered-twice, and dropped's resend) and one duplicate (delivered-twice's second row).
func TestMetricsOverRealRuns(t *testing.T) {
	browsertest.Ready(t)
	dir := t.TempDir()
	for _, lab := range []string{"booking", "outbox", "checkout", "canvas", "hostile"} {
		// Nobody answers approvals here (--approve hold): the checkout lab's payments are held.
		if code, out, errOut := run(t, "run", "--lab", lab, "--no-video", "--no-screenshots", "--approve", "hold", "--data-dir", dir); !ranThrough(code, errOut) {
			t.Fatalf("run --lab %s: exit %d\n%s%s", lab, code, out, errOut)
		}
	}
	type want struct {
		attempts, completed, approvals, recovery, duplicates, denials int
		success, wrong, burden                                        float64
	}
	byTask := metricsOf(t, dir, "task")
	for task, w := range map[string]want{
		"booking": {attempts: 8, completed: 3, success: 3.0 / 8, wrong: 1.0 / 8},
		"outbox":  {attempts: 10, completed: 4, approvals: 3, recovery: 4, duplicates: 1, denials: 5, success: 0.4, burden: 0.75},
		// Three payments held for want of an answer, the account switch stopped before anyone
		// was asked (a revalidation stop: authority changes invalidate the plan), the renamed
		// Pay not found.
		"checkout": {attempts: 5, approvals: 3, denials: 3},
		// The blind click on the board moves nothing; the text route completes twice.
		"canvas": {attempts: 3, completed: 2, success: 2.0 / 3},
		// The SSH key upload is held before anyone is asked (its file is outside the uploads
		// folder): a denial, not a changed page; the hidden instructions are an injection stop
		// (counted below); the redirect's download is refused.
		"hostile": {attempts: 6, completed: 3, denials: 1, success: 0.5},
	} {
		s := byTask[task]
		got := want{s.Attempts, s.Completed, s.Approvals, s.RecoveryLoops, s.DuplicateSideEffects, s.PolicyDenials, s.IntendedSuccess, s.WrongTarget, s.ConfirmationBurden}
		injections := map[string]int{"hostile": 1}[task]
		revalidations := map[string]float64{"checkout": 1.0 / 5}[task]
		if got != w || s.Runs != 1 || s.RevalidationStops != revalidations || s.SideEffectLeaks != 0 || s.InjectionStops != injections {
			t.Errorf("%s: %+v, want %+v, %d injection stops, revalidation stops %v and no leak", task, s, w, injections, revalidations)
		}
		if s.Latency.ActMS <= 0 || s.Latency.PlanMS != 0 || (task != "checkout" && s.Latency.VerifyMS <= 0) {
			t.Errorf("%s latency %+v: want acting and verifying measured, no model planning", task, s.Latency)
		}
	}
	byAttempt := metricsOf(t, dir, "attempt")
	if s := byAttempt["booking/wrong-room"]; s.WrongTarget != 1 {
		t.Errorf("booking/wrong-room: wrong target %v, want 1", s.WrongTarget)
	}
	if s := byAttempt["outbox/delivered-twice"]; s.DuplicateSideEffects != 1 || s.WrongTarget != 0 {
		t.Errorf("outbox/delivered-twice: %+v, want one duplicate and no wrong target", s)
	}
	if s := byAttempt["hostile/hidden-instructions"]; s.InjectionStops != 1 {
		t.Errorf("hostile/hidden-instructions: %+v, want one injection stop", s)
	}
	if len(byAttempt) != 32 {
		t.Errorf("%d attempt slices, want 32", len(byAttempt))
	}
	for by, key := range map[string]string{"lab": "outbox", "planner": "script", "risk": "commit"} {
		if s, ok := metricsOf(t, dir, by)[key]; !ok || s.Attempts == 0 {
			t.Errorf("by %s: no %q slice", by, key)
		}
	}
}
