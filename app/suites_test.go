package app

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"observatory/app/apierror"
	"observatory/backend/agent"
	"observatory/backend/store"
)

// newChromiumServices builds the services on a fresh store, launching Chromium for runs.
func newChromiumServices(t *testing.T) (*Services, *recording, *store.Store) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := New(Options{Store: st, DataDir: dir})
	rec := newRecording()
	s.SetEmitter(rec)
	t.Cleanup(s.Shutdown)
	return s, rec, st
}

// waitSuite waits until no suite run goes.
func waitSuite(t *testing.T, r *Runs) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for r.Going().SuiteRun != "" {
		if time.Now().After(deadline) {
			t.Fatal("the suite run never ended")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestSuiteRunInChromium runs a suite of two labs' attempts from the window's service, two
// trials of each, in real Chromium: each task is a run of its own recorded with the suite
// run's id, the grid has a row per attempt and a cell per trial with how it ended, and the
// estimates are the counts of the trials (2 of 2 for the attempts that save, 0 of 2 for the
// wrong room) with their Wilson intervals.
func TestSuiteRunInChromium(t *testing.T) {
	s, _, _ := newChromiumServices(t)
	id, err := s.Runs.StartSuite(SuiteRequest{Name: "smoke", Repeat: 2, Tasks: []SuiteTask{
		{Task: "lab:booking", Attempts: []string{"saves-normally", "wrong-room"}},
		{Task: "lab:outbox", Attempts: []string{"sends-normally"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(id, "smoke@") || SuiteName(id) != "smoke" {
		t.Errorf("suite run id %q: want smoke@RUNID", id)
	}
	if _, err := s.Runs.Start(StartRequest{Task: "lab:booking"}); !errors.Is(err, ErrRunGoing) {
		t.Errorf("Start while the suite goes: %v, want ErrRunGoing", err)
	}
	waitSuite(t, s.Runs)

	rep, err := s.Runs.Suite(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2 || rep.Runs[0].Task != "booking" || rep.Runs[1].Task != "outbox" || rep.Runs[0].Status != agent.RunFinished {
		t.Fatalf("suite runs %+v: want booking's run, then outbox's, finished", rep.Runs)
	}
	if rep.Name != "smoke" || rep.Trials != 2 {
		t.Errorf("name %q, %d trials; want smoke, 2", rep.Name, rep.Trials)
	}
	want := map[string][]agent.Terminal{
		"booking/saves-normally": {agent.Completed, agent.Completed},
		"booking/wrong-room":     {agent.Failed, agent.Failed},
		"outbox/sends-normally":  {agent.Completed, agent.Completed},
	}
	var keys []string
	for _, row := range rep.Rows {
		keys = append(keys, row.Key)
		var got []agent.Terminal
		for k, c := range row.Cells {
			got = append(got, c.Terminal)
			if c.Trial != k+1 || c.Slug != agent.TrialSlug(row.Attempt, k+1) || c.Run == "" {
				t.Errorf("%s cell %d: %+v; want trial %d of a run", row.Key, k, c, k+1)
			}
		}
		if !reflect.DeepEqual(got, want[row.Key]) {
			t.Errorf("%s ended %v, want %v", row.Key, got, want[row.Key])
		}
	}
	if wantKeys := []string{"booking/saves-normally", "booking/wrong-room", "outbox/sends-normally"}; !reflect.DeepEqual(keys, wantKeys) {
		t.Errorf("rows %v, want %v", keys, wantKeys)
	}
	rates := map[string]string{}
	for _, sl := range rep.Estimates.Slices {
		rates[sl.Key] = sl.Interval.String()
	}
	// Wilson 95% intervals: 2 of 2 is [34%, 100%], 0 of 2 [0%, 66%]; 4 of 6 overall [30%, 90%].
	if w := map[string]string{"booking/saves-normally": "[34%, 100%]", "booking/wrong-room": "[0%, 66%]", "outbox/sends-normally": "[34%, 100%]"}; !reflect.DeepEqual(rates, w) {
		t.Errorf("intervals %v, want %v", rates, w)
	}
	if o := rep.Estimates.Overall; o.Attempts != 6 || o.Completed != 4 || o.Interval.String() != "[30%, 90%]" {
		t.Errorf("overall %d of %d %s, want 4 of 6 [30%%, 90%%]", o.Completed, o.Attempts, o.Interval)
	}
}

// TestSuiteRefusesWhatCannotRun: no tasks, a task that is not there and too many trials are
// refused before anything runs; a suite run nobody made is not found.
func TestSuiteRefusesWhatCannotRun(t *testing.T) {
	s, _, st := newServices(t, untilStopped(make(chan struct{})))
	for _, c := range []struct {
		req  SuiteRequest
		want string
	}{
		{SuiteRequest{}, "at least one task"},
		{SuiteRequest{Tasks: []SuiteTask{{Task: "lab:booking"}, {Task: "lab:nope"}}}, `task 2 (lab:nope)`},
		{SuiteRequest{Tasks: []SuiteTask{{Task: "lab:booking"}}, Repeat: agent.MaxTrials + 1}, "repeat 1001"},
		{SuiteRequest{Tasks: []SuiteTask{{Task: "lab:booking"}, {Task: "lab:outbox", Attempts: []string{"nope"}}}}, `task 2 (lab:outbox): `},
	} {
		if _, err := s.Runs.StartSuite(c.req); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("StartSuite(%+v): %v, want an error saying %q", c.req, err, c.want)
		}
	}
	if list, _ := st.List(); len(list) != 0 {
		t.Errorf("refused suites left %d runs", len(list))
	}
	if _, err := s.Runs.Suite("none@1"); apierror.Of(err).Kind != apierror.NotFound {
		t.Errorf("Suite of an unknown suite run: %v, want not found", err)
	}
}

// TestStopStopsTheSuite stops a suite run while its first run waits on its browser: that run
// is cancelled and no other run of the suite starts.
func TestStopStopsTheSuite(t *testing.T) {
	started := make(chan struct{})
	s, _, st := newServices(t, untilStopped(started))
	id, err := s.Runs.StartSuite(SuiteRequest{Tasks: []SuiteTask{{Task: "lab:booking", Attempts: []string{"saves-normally"}}, {Task: "lab:outbox"}}})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if err := s.Runs.Stop(); err != nil {
		t.Fatal(err)
	}
	if g := s.Runs.Going(); g.SuiteRun != "" || g.ID != "" {
		t.Errorf("after Stop, going %+v; want nothing", g)
	}
	ids, err := st.SuiteRuns(id)
	if err != nil || len(ids) != 1 {
		t.Fatalf("suite runs %v, %v; want the one stopped", ids, err)
	}
	if run, err := st.Get(ids[0]); err != nil || run.Status != agent.RunCancelled {
		t.Errorf("the stopped run is %v, %v; want cancelled", run.Status, err)
	}
}
