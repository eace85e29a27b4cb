package store

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRecordedRunRoundTrips(t *testing.T) {
	s := open(t, t.TempDir())
	want := testRun("run-1")
	if err := record(s, want, true); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get("run-1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Get after recording:\n got %+v\nwant %+v", got, want)
	}
}

func TestSaveImportedRoundTrips(t *testing.T) {
	s := open(t, t.TempDir())
	want := testRun("imp-1")
	want.Source = "shared.json"
	if err := s.SaveImported(want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get("imp-1")
	if err != nil {
		t.Fatal(err)
	}
	want.Status = agent.RunImported
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Get after SaveImported:\n got %+v\nwant %+v", got, want)
	}
}

func TestSaveImportedKeepsAnAttemptOfTenThousandSteps(t *testing.T) {
	s := open(t, t.TempDir())
	run := testRun("long")
	a := &run.Attempts[0]
	a.Steps = nil
	for k := range 10_000 {
		a.Steps = append(a.Steps, agent.Step{Index: k, StartMS: int64(k), Action: agent.Action{ID: fmt.Sprint("s", k), Description: "a step", Kind: agent.ActClick}})
	}
	if err := s.SaveImported(run); err != nil {
		t.Fatalf("storing 10,000 steps: %v", err)
	}
	got, err := s.Get("long")
	if err != nil {
		t.Fatal(err)
	}
	if steps := got.Attempts[0].Steps; len(steps) != 10_000 || steps[9_999].Index != 9_999 {
		t.Errorf("got %d steps back, the last %+v", len(steps), steps[len(steps)-1].Index)
	}
}

func TestSaveImportedIsAllOrNothing(t *testing.T) {
	s := open(t, t.TempDir())
	run := testRun("imp-2")
	run.Attempts[1].Slug = run.Attempts[0].Slug // violates the unique (run, slug) index
	if err := s.SaveImported(run); err == nil {
		t.Fatal("SaveImported accepted two attempts with one slug")
	}
	if _, err := s.Get("imp-2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after a failed import Get = %v, want ErrNotFound", err)
	}
	list, err := s.List()
	if err != nil || len(list) != 0 {
		t.Errorf("after a failed import List = %v, %v; want nothing", list, err)
	}
}

func TestGetByPrefix(t *testing.T) {
	s := open(t, t.TempDir())
	for _, id := range []string{"a1b2c3", "a1ffff", "b0", "b"} {
		if err := s.SaveImported(testRun(id)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		id, want string
		err      error
		msg      string
	}{
		{id: "a1b", want: "a1b2c3"},
		{id: "a1b2c3", want: "a1b2c3"},
		{id: "b", want: "b"}, // an exact id wins over the longer ids it prefixes
		{id: "a1", err: ErrAmbiguous, msg: "a1b2c3, a1ffff"},
		{id: "A1B", err: ErrNotFound, msg: `"A1B"`},
		{id: "zz", err: ErrNotFound, msg: `"zz"`},
		{id: "", err: ErrNotFound},
		{id: "%", err: ErrNotFound},
	}
	for _, tt := range tests {
		got, err := s.Get(tt.id)
		if tt.err != nil {
			if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Get(%q) error = %v, want %v naming %s", tt.id, err, tt.err, tt.msg)
			}
			continue
		}
		if err != nil || got.ID != tt.want {
			t.Errorf("Get(%q) = %q, %v; want %q", tt.id, got.ID, err, tt.want)
		}
	}
}

func TestListSummarizesNewestFirst(t *testing.T) {
	s := open(t, t.TempDir())
	older, newer := testRun("older"), testRun("newer")
	newer.Created = older.Created.Add(1)
	newer.Attempts = newer.Attempts[:1]
	for _, r := range []agent.Run{older, newer} {
		if err := record(s, r, true); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	// older: attempt 1 all agree; attempt 2's notice and parallax say done, nothing saved: one wrong attempt.
	want := []Summary{
		{ID: "newer", Task: "booking", Created: newer.Created, Added: newer.Created, Status: agent.RunFinished, Source: "live", Attempts: 1, Completed: 1, Wrong: 0},
		{ID: "older", Task: "booking", Created: older.Created, Added: older.Created, Status: agent.RunFinished, Source: "live", Attempts: 2, Completed: 1, Wrong: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List:\n got %+v\nwant %+v", got, want)
	}
}

func TestReopenMarksRunningRunInterrupted(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := testRun("dying")
	if err := record(s, run, false); err != nil {
		t.Fatal(err)
	}
	if err := record(s, testRun("done"), true); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s = open(t, dir)
	got, err := s.Get("dying")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != agent.RunInterrupted {
		t.Errorf("status after reopen = %q, want interrupted", got.Status)
	}
	a := got.Attempts[0]
	if a.Terminal != "" || a.Reason != interruptedReason || len(a.Steps) != 5 || len(a.Events) != 5 {
		t.Errorf("unfinished attempt = terminal %q, reason %q, %d steps, %d events; want no terminal, the interrupted reason and 5 of each",
			a.Terminal, a.Reason, len(a.Steps), len(a.Events))
	}
	if done, _ := s.Get("done"); done.Status != agent.RunFinished {
		t.Errorf("finished run's status after reopen = %q, want finished", done.Status)
	}
}

func TestAttemptFinishedReplacesEvents(t *testing.T) {
	s := open(t, t.TempDir())
	run := testRun("ev")
	run.Attempts = run.Attempts[:1]
	if err := record(s, run, false); err != nil {
		t.Fatal(err)
	}
	final := run.Attempts[0]
	final.Events = append(final.Events[:2:2], agent.Event{Seq: 3, AtMS: 999, Type: "late"})
	if err := s.AttemptFinished("ev", final); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get("ev")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Attempts[0].Events, final.Events) {
		t.Errorf("events after AttemptFinished = %+v, want %+v", got.Attempts[0].Events, final.Events)
	}
}

func TestRecorderRefusesUnknownRunsAndAttempts(t *testing.T) {
	s := open(t, t.TempDir())
	if err := s.RunStarted(testRun("r")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
		msg  string
	}{
		{"step of unstarted attempt", s.StepRecorded("r", "nope", agent.Step{}, nil), `attempt "nope" was never started in run "r"`},
		{"attempt of unknown run", s.AttemptStarted("ghost", 0, agent.Attempt{Slug: "a"}), `run "ghost": FOREIGN KEY constraint failed`},
		{"finish of unknown run", s.RunFinished("ghost", agent.RunFinished), `run "ghost": ` + ErrNotFound.Error()},
		{"duplicate run", s.RunStarted(testRun("r")), `run "r": UNIQUE constraint failed`},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.msg) {
			t.Errorf("%s: error = %v, want one containing %s", tt.name, tt.err, tt.msg)
		}
	}
	if err := s.RunFinished("ghost", agent.RunFinished); !errors.Is(err, ErrNotFound) {
		t.Errorf("finishing an unknown run gave %v, want ErrNotFound", err)
	}
}

func TestOpenUsesWALAndForeignKeys(t *testing.T) {
	s := open(t, t.TempDir())
	var mode string
	var fk int
	s.db.Raw("PRAGMA journal_mode").Scan(&mode)
	s.db.Raw("PRAGMA foreign_keys").Scan(&fk)
	if mode != "wal" || fk != 1 {
		t.Errorf("journal_mode = %q, foreign_keys = %d; want wal and 1", mode, fk)
	}
}

func TestAttemptFinishedKeepsTheOracleAnswers(t *testing.T) {
	s := open(t, t.TempDir())
	run := testRun("run-answers")
	run.Attempts[0].Answers = []agent.Answer{
		{Condition: "stored", Kind: "http", Error: "connection refused"},
		{Condition: "shown", Kind: "page", Raw: []byte(`{"text":"Saved"}`)},
	}
	if err := record(s, run, true); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get("run-answers")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Attempts[0].Answers, run.Attempts[0].Answers) {
		t.Errorf("answers after recording: %+v, want %+v", got.Attempts[0].Answers, run.Attempts[0].Answers)
	}
}

// TestAttemptFinishedKeepsTheBrowserLog: the browser log is stored beside the reason, bounded
// to agent.MaxBrowserLog bytes whoever hands it over, and read back; an imported attempt keeps
// its own.
func TestAttemptFinishedKeepsTheBrowserLog(t *testing.T) {
	s := open(t, t.TempDir())
	run := testRun("run-log")
	const log = "Browser logs:\n<launching> /usr/bin/chromium\n[pid=1] <process did exit: signal=SIGKILL>"
	run.Attempts[0].BrowserLog = log
	run.Attempts[1].BrowserLog = strings.Repeat("x", 3*agent.MaxBrowserLog)
	if err := record(s, run, true); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get("run-log")
	if err != nil {
		t.Fatal(err)
	}
	if got.Attempts[0].BrowserLog != log {
		t.Errorf("browser log after recording: %q, want %q", got.Attempts[0].BrowserLog, log)
	}
	if long := got.Attempts[1].BrowserLog; len(long) > agent.MaxBrowserLog || !strings.Contains(long, "bytes left out") {
		t.Errorf("a long browser log was stored as %d bytes, want it bounded to %d with the cut said", len(long), agent.MaxBrowserLog)
	}
	imported := testRun("imported-log")
	imported.Status = agent.RunImported
	imported.Attempts[0].BrowserLog = log
	if err := s.SaveImported(imported); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get("imported-log"); err != nil || got.Attempts[0].BrowserLog != log {
		t.Errorf("an imported attempt's browser log: %q, %v", got.Attempts[0].BrowserLog, err)
	}
}

// TestTheAgentsClaimIsStored: an attempt's claim is stored when it finishes and read back, an
// imported attempt keeps its own, and an attempt without one reads back without one.
func TestTheAgentsClaimIsStored(t *testing.T) {
	s := open(t, t.TempDir())
	run := testRun("run-claim")
	claim := agent.Claim{Done: true, Source: agent.ClaimMCP, Answer: "room 2", Words: "Reserved it."}
	run.Attempts[0].Claim = &claim
	if err := record(s, run, true); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get("run-claim")
	if err != nil {
		t.Fatal(err)
	}
	if c := got.Attempts[0].Claim; c == nil || *c != claim {
		t.Errorf("claim after recording: %+v, want %+v", c, claim)
	}
	if got.Attempts[1].Claim != nil {
		t.Errorf("an attempt without a claim read back with %+v", got.Attempts[1].Claim)
	}
	imported := testRun("imported-claim")
	imported.Status = agent.RunImported
	imported.Attempts[1].Claim = &claim
	if err := s.SaveImported(imported); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get("imported-claim"); err != nil || got.Attempts[1].Claim == nil || *got.Attempts[1].Claim != claim {
		t.Errorf("an imported attempt's claim: %+v, %v", got.Attempts[1].Claim, err)
	}
}

// TestSuiteRunsListsTheRunsOfOneSuiteRun records two runs of a suite run and one of its own:
// the suite run names its two in the order they started, the history says which suite run
// each is of, and a suite run nobody made has no runs.
func TestSuiteRunsListsTheRunsOfOneSuiteRun(t *testing.T) {
	s := open(t, t.TempDir())
	for _, r := range []struct{ id, suite string }{{"run-2", "smoke@1"}, {"run-1", ""}, {"run-3", "smoke@1"}} {
		run := testRun(r.id)
		run.SuiteRun = r.suite
		run.Created = run.Created.Add(time.Duration(r.id[4]) * time.Second)
		if err := record(s, run, true); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.SuiteRuns("smoke@1")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"run-2", "run-3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SuiteRuns = %v, want %v", got, want)
	}
	if none, err := s.SuiteRuns("other@2"); err != nil || len(none) != 0 {
		t.Errorf("SuiteRuns of an unknown suite run = %v, %v; want none", none, err)
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, sum := range list {
		if want := map[string]string{"run-1": "", "run-2": "smoke@1", "run-3": "smoke@1"}[sum.ID]; sum.SuiteRun != want {
			t.Errorf("run %s in the history: suite run %q, want %q", sum.ID, sum.SuiteRun, want)
		}
	}
}
