package store

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// summarisedRun is testRun with what a step summary tells apart: a model's turns (one of
// them a done call that became the action), a failed step and a step whose only screenshot
// is the one before.
func summarisedRun(id string) agent.Run {
	run := testRun(id)
	steps := run.Attempts[1].Steps
	steps[0].After.Screenshot = ""
	steps[2].Error = "no element matches combobox[Room]"
	steps[3].Decision = agent.Decision{Class: agent.ClassCommit, Admission: agent.Hold, Reason: "page changed"}
	steps[4].ModelTurns = []agent.ModelTurn{
		{Step: 4, Model: "openai:m", Calls: []agent.ModelCall{{ID: "c1", Name: "read_page_text", Outcome: "answered"}}},
		{Step: 4, Model: "openai:m", Calls: []agent.ModelCall{{ID: "c2", Name: agent.DoneCall, Outcome: agent.CallProposed}}},
	}
	steps[1].ModelTurns = []agent.ModelTurn{{Step: 1, Model: "openai:m", Calls: []agent.ModelCall{{ID: "c0", Name: agent.DoneCall, Outcome: "refused"}}}}
	return run
}

// headerOf is the header a run should read as: its steps counted and, for an attempt of at
// most InlineSteps, summarised; nothing else changed.
func headerOf(run agent.Run) RunHeader {
	h := RunHeader{Run: run, Attempts: make([]AttemptHeader, len(run.Attempts))}
	h.Run.Attempts = nil
	for i, a := range run.Attempts {
		sums := summariesOf(a)
		head := AttemptHeader{Attempt: a, StepCount: len(sums)}
		for _, sum := range sums {
			head.Turns += sum.Turns
			head.SaidDone = head.SaidDone || sum.SaidDone
		}
		if len(sums) <= InlineSteps {
			head.Steps = sums
		}
		head.Attempt.Steps = nil
		h.Attempts[i] = head
	}
	return h
}

// summariesOf is every step summary of a, as Step.Summary gives them.
func summariesOf(a agent.Attempt) []agent.StepSummary {
	sums := []agent.StepSummary{}
	for _, st := range a.Steps {
		sums = append(sums, st.Summary())
	}
	return sums
}

// TestHeaderSummarisesStepsWithoutReadingThem records a run, then makes every action, sample,
// decision, model turn and piece of traffic unreadable: the header still reads, with each
// step's summary as Step.Summary gives it, so it reads none of them; the steps then do not.
func TestHeaderSummarisesStepsWithoutReadingThem(t *testing.T) {
	s := open(t, t.TempDir())
	run := summarisedRun("run-head")
	if err := record(s, run, true); err != nil {
		t.Fatal(err)
	}
	want := headerOf(run)
	if got := want.Attempts[1].Steps; got[0].Shot == "" || !got[2].Failed || got[3].Admission != agent.Hold ||
		got[4].Turns != 2 || !got[4].SaidDone || got[1].SaidDone || want.Attempts[1].Turns != 3 || want.Attempts[0].SaidDone {
		t.Fatalf("the fixture's summaries do not tell the cases apart: %+v", want.Attempts)
	}
	got, err := s.Header("run-h") // a unique prefix is enough
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Header:\n got %+v\nwant %+v", got, want)
	}

	err = s.db.Exec("UPDATE `steps` SET `action` = '{', `before` = '{', `after` = '{', `decision` = '{', `model_turns` = '{', `requests` = '{', `candidates` = '{'").Error
	if err != nil {
		t.Fatal(err)
	}
	got, err = s.Header("run-head")
	if err != nil {
		t.Fatalf("Header read what it should not: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Header with unreadable samples:\n got %+v\nwant %+v", got, want)
	}
	if _, err := s.Steps("run-head", "saves-normally", 0, 1); err == nil {
		t.Error("Steps read unreadable samples without an error; the check above proves nothing")
	}
}

// TestTheSummaryAndHistoryQueriesReadOnlyTheirIndexes asks SQLite how it runs the list
// queries: from the covering indexes, never from the rows (where the JSON is).
func TestTheSummaryAndHistoryQueriesReadOnlyTheirIndexes(t *testing.T) {
	s := open(t, t.TempDir())
	if err := record(s, testRun("run-1"), true); err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		name, sql string
		args      []any
		want      []string
		not       []string
	}{
		{"step summaries", summaryQuery, []any{[]uint{1, 2}}, []string{"COVERING INDEX step_summary"}, []string{"SCAN steps"}},
		{"step tallies", tallyQuery, []any{"run-1"}, []string{"COVERING INDEX step_summary"}, []string{"SCAN steps"}},
		{"history", historyQuery, []any{string(agent.Completed)}, []string{"COVERING INDEX attempt_tally"}, []string{"SCAN a\n", "SEARCH a USING INDEX"}},
	} {
		var plan []struct {
			ID, Parent, Notused int
			Detail              string
		}
		if err := s.db.Raw("EXPLAIN QUERY PLAN "+q.sql, q.args...).Scan(&plan).Error; err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, p := range plan {
			text.WriteString(p.Detail + "\n")
		}
		for _, w := range q.want {
			if !strings.Contains(text.String(), w) {
				t.Errorf("the %s query's plan lacks %q:\n%s", q.name, w, text.String())
			}
		}
		for _, n := range q.not {
			if strings.Contains(text.String(), n) {
				t.Errorf("the %s query's plan has %q:\n%s", q.name, n, text.String())
			}
		}
	}
}

// TestALongAttemptsSummariesAreReadApart stores an attempt one step longer than the header
// summarises: the header counts its steps without listing them, and Summaries lists them.
func TestALongAttemptsSummariesAreReadApart(t *testing.T) {
	s := open(t, t.TempDir())
	run := summarisedRun("run-long")
	a := &run.Attempts[1]
	five := a.Steps
	a.Steps = nil
	for k := range InlineSteps + 1 {
		st := five[k%5]
		st.Index = k
		a.Steps = append(a.Steps, st)
	}
	if err := s.SaveImported(run); err != nil {
		t.Fatal(err)
	}
	head, err := s.Header("run-long")
	if err != nil {
		t.Fatal(err)
	}
	if got := head.Attempts[1]; got.Steps != nil || got.StepCount != InlineSteps+1 || !got.SaidDone || got.Turns != 3*(InlineSteps/5) { // 3 turns every 5 steps
		t.Errorf("the long attempt's header: %d summaries, %d steps, said done %v, %d turns", len(got.Steps), got.StepCount, got.SaidDone, got.Turns)
	}
	if got := head.Attempts[0]; len(got.Steps) != 5 || got.StepCount != 5 {
		t.Errorf("the short attempt's header: %d summaries of %d steps, want all 5", len(got.Steps), got.StepCount)
	}
	sums, err := s.Summaries("run-lo", "notice-without-record")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sums, summariesOf(*a)) {
		t.Errorf("Summaries of the long attempt: %d of them, want %d as Step.Summary gives them", len(sums), len(a.Steps))
	}
	if _, err := s.Summaries("run-long", "nope"); !errors.Is(err, ErrNoAttempt) {
		t.Errorf("Summaries of a missing attempt = %v, want ErrNoAttempt", err)
	}
}

// TestStepsReadsAWindowOfSteps reads windows of an attempt's steps, whole, by position.
func TestStepsReadsAWindowOfSteps(t *testing.T) {
	s := open(t, t.TempDir())
	run := summarisedRun("run-steps")
	if err := s.SaveImported(run); err != nil {
		t.Fatal(err)
	}
	all := run.Attempts[1].Steps
	for _, w := range []struct {
		from, count int
		want        []agent.Step
	}{
		{0, 5, all}, {1, 2, all[1:3]}, {3, 10, all[3:]}, {5, 4, []agent.Step{}}, {99, 1, []agent.Step{}}, {2, 0, []agent.Step{}},
	} {
		got, err := s.Steps("run-st", "notice-without-record", w.from, w.count)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, w.want) {
			t.Errorf("Steps from %d, %d:\n got %+v\nwant %+v", w.from, w.count, got, w.want)
		}
	}
	if _, err := s.Steps("run-steps", "notice-without-record", -1, 2); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Steps from -1 = %v, want a refusal", err)
	}
	_, err := s.Steps("run-steps", "nope", 0, 1)
	if !errors.Is(err, ErrNoAttempt) || !strings.Contains(err.Error(), `has no attempt "nope": it has saves-normally, notice-without-record`) {
		t.Errorf("Steps of a missing attempt = %v, want ErrNoAttempt naming the attempts", err)
	}
	if _, err := s.Steps("nope", "saves-normally", 0, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Steps of a missing run = %v, want ErrNotFound", err)
	}
}

// TestAttemptReadsOneAttemptWhole reads one attempt with its run's fields and nothing of the
// other attempts.
func TestAttemptReadsOneAttemptWhole(t *testing.T) {
	s := open(t, t.TempDir())
	run := summarisedRun("run-one")
	if err := record(s, run, true); err != nil {
		t.Fatal(err)
	}
	got, err := s.Attempt("run-one", "notice-without-record")
	if err != nil {
		t.Fatal(err)
	}
	want := run
	want.Attempts = run.Attempts[1:]
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Attempt:\n got %+v\nwant %+v", got, want)
	}
	if _, err := s.Attempt("run-one", "nope"); !errors.Is(err, ErrNoAttempt) {
		t.Errorf("Attempt of a missing slug = %v, want ErrNoAttempt", err)
	}
	if st, err := s.Stamp("run-o"); err != nil || st.ID != "run-one" || st.Status != agent.RunFinished || !st.Added.Equal(run.Created) {
		t.Errorf("Stamp = %+v, %v; want the run's id, status and when it was added (its start)", st, err)
	}
}

// TestHistoryCountsAttemptsWithoutReadingThem lists runs as they are recorded, then with every
// attempt's verdicts and every step unreadable: the counts come from the attempts' terminal
// states and wrong flags alone.
func TestHistoryCountsAttemptsWithoutReadingThem(t *testing.T) {
	s := open(t, t.TempDir())
	// testRun's second attempt fails with signals that say done: wrong; the first completes.
	if err := record(s, testRun("run-a"), true); err != nil {
		t.Fatal(err)
	}
	unfinished := testRun("run-b")
	unfinished.Created = unfinished.Created.Add(1)
	if err := record(s, unfinished, false); err != nil { // stops after the first attempt's steps
		t.Fatal(err)
	}
	imported := testRun("run-c")
	imported.Attempts[0].Terminal = agent.Failed
	if err := s.SaveImported(imported); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveImported(agent.Run{ID: "run-d", Task: "booking", Created: t0}); err != nil {
		t.Fatal(err)
	}
	type counts struct {
		id                         string
		attempts, completed, wrong int
	}
	want := []counts{{"run-d", 0, 0, 0}, {"run-c", 2, 0, 1}, {"run-b", 1, 0, 0}, {"run-a", 2, 1, 1}}
	check := func(when string) {
		t.Helper()
		list, err := s.List()
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		var got []counts
		for _, r := range list {
			got = append(got, counts{r.ID, r.Attempts, r.Completed, r.Wrong})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: history counts %+v, want %+v", when, got, want)
		}
	}
	// run-b stopped inside its first attempt; the list is newest added first, and
	// run-c and run-d were added (imported) after run-a and run-b started.
	check("as recorded")
	if err := s.db.Exec("UPDATE `attempts` SET `verdicts` = '{', `task` = '{', `plan` = '{'").Error; err != nil {
		t.Fatal(err)
	}
	if err := s.db.Exec("UPDATE `steps` SET `before` = '{', `after` = '{', `action` = '{'").Error; err != nil {
		t.Fatal(err)
	}
	check("with unreadable verdicts and steps")
}

// TestSummariesBackfillAsTheWritersWrite clears the summary columns of a recorded run, as a
// database from before them has them, and fills them again the way migration 10 does: the
// header and the history read as they did.
func TestSummariesBackfillAsTheWritersWrite(t *testing.T) {
	s := open(t, t.TempDir())
	if err := record(s, summarisedRun("run-fill"), true); err != nil {
		t.Fatal(err)
	}
	head, err := s.Header("run-fill")
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	err = s.db.Exec("UPDATE `steps` SET `description` = '', `kind` = '', `target` = '', `value` = '', " +
		"`class` = '', `admission` = '', `failed` = false, `shot` = '', `turns` = 0, `said_done` = false").Error
	if err == nil {
		err = s.db.Exec("UPDATE `attempts` SET `wrong` = false").Error
	}
	if err != nil {
		t.Fatal(err)
	}
	if cleared, _ := s.Header("run-fill"); reflect.DeepEqual(cleared, head) {
		t.Fatal("clearing the summary columns changed nothing; the check below proves nothing")
	}
	if err := backfillSteps(s.db); err != nil {
		t.Fatal(err)
	}
	if err := backfillAttempts(s.db); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Header("run-fill"); err != nil || !reflect.DeepEqual(got, head) {
		t.Errorf("Header after the backfill:\n got %+v (%v)\nwant %+v", got, err, head)
	}
	if got, err := s.List(); err != nil || !reflect.DeepEqual(got, list) {
		t.Errorf("List after the backfill: %+v (%v), want %+v", got, err, list)
	}
}
