package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/killswitch"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// recording is an Emitter that keeps every run event, and their numbers.
type recording struct {
	mu     sync.Mutex
	events []runner.Progress
	seqs   []uint64
	ended  chan struct{}
}

func newRecording() *recording { return &recording{ended: make(chan struct{}, 8)} }

func (r *recording) Emit(name string, data any) {
	var p runner.Progress
	var seq uint64
	switch e := data.(type) {
	case RunEvent:
		p, seq = e.Progress, e.Seq
	case runner.Progress:
		p = e
	}
	r.mu.Lock()
	r.events = append(r.events, p)
	r.seqs = append(r.seqs, seq)
	r.mu.Unlock()
	if p.Kind == runner.RunFinished {
		r.ended <- struct{}{}
	}
}

func (r *recording) copy() []runner.Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]runner.Progress(nil), r.events...)
}

func (r *recording) kinds() []runner.Kind {
	var k []runner.Kind
	for _, e := range r.copy() {
		k = append(k, e.Kind)
	}
	return k
}

func (r *recording) waitEnd(t *testing.T) {
	t.Helper()
	select {
	case <-r.ended:
	case <-time.After(10 * time.Second):
		t.Fatalf("the run never reported its end; events %v", r.kinds())
	}
}

// newServices builds the services on a fresh store with the given browser launcher.
func newServices(t *testing.T, launch func(ctx context.Context) (agent.Browser, error)) (*Services, *recording, *store.Store) {
	t.Helper()
	return newServicesLaunching(t, func(bool, string) runner.Launcher { return launch })
}

// newServicesLaunching is newServices with the launcher each Start asks for, as it begins.
func newServicesLaunching(t *testing.T, launchers func(bool, string) runner.Launcher) (*Services, *recording, *store.Store) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := New(Options{Store: st, DataDir: dir, Launch: launchers})
	rec := newRecording()
	s.SetEmitter(rec)
	t.Cleanup(s.Shutdown)
	return s, rec, st
}

// untilStopped is a launcher whose browser takes until the run is stopped; started closes at
// its first launch.
func untilStopped(started chan struct{}) func(ctx context.Context) (agent.Browser, error) {
	var once sync.Once
	return func(ctx context.Context) (agent.Browser, error) {
		once.Do(func() { close(started) })
		<-ctx.Done()
		return nil, ctx.Err()
	}
}

func TestStartWithoutABrowserEndsTheRunOnceWithTheAdvice(t *testing.T) {
	s, rec, st := newServices(t, func(context.Context) (agent.Browser, error) {
		return nil, errors.New("no Chromium found: install Debian's chromium package")
	})
	id, err := s.Runs.Start(StartRequest{Task: "lab:booking", Attempts: []string{"saves-normally"}})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitEnd(t)
	events := rec.copy()
	finishes, advice := 0, -1
	for i, e := range events {
		if e.Kind == runner.RunFinished {
			finishes++
		}
		if e.Kind == runner.Error && strings.Contains(e.Message, "install Debian's chromium") {
			advice = i
		}
	}
	if finishes != 1 || advice < 0 || events[len(events)-1].Kind != runner.RunFinished {
		t.Errorf("events %v: want the install advice, then exactly one run-finished, last", rec.kinds())
	}
	run, err := st.Get(id)
	if err != nil || run.Status != agent.RunInterrupted {
		t.Errorf("stored run %+v, %v; want it interrupted", run.Status, err)
	}
}

func TestOneRunAtATimeAndStopCancelsIt(t *testing.T) {
	started := make(chan struct{})
	s, rec, st := newServices(t, untilStopped(started))
	id, err := s.Runs.Start(StartRequest{Task: "lab:booking"})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if _, err := s.Runs.Start(StartRequest{Task: "lab:booking"}); !errors.Is(err, ErrRunGoing) {
		t.Errorf("a second Start gave %v, want ErrRunGoing", err)
	}
	if err := s.Runs.Stop(); err != nil {
		t.Fatal(err)
	}
	rec.waitEnd(t)
	n := len(rec.kinds())
	if run, err := st.Get(id); err != nil || run.Status != agent.RunCancelled {
		t.Errorf("stored run %v, %v; want cancelled", run.Status, err)
	}
	if _, err := s.Runs.Start(StartRequest{Task: "lab:nope"}); err == nil || !strings.Contains(err.Error(), `no lab called "nope"`) {
		t.Errorf("an unknown lab gave %v", err)
	}
	if len(rec.kinds()) != n {
		t.Errorf("events arrived after Stop returned: %v", rec.kinds()[n:])
	}
}

// TestGoingTellsALateWindowTheRun checks that Going gives the run going, its planned
// attempts and its events so far, numbered as they were sent, and nothing once it has ended.
func TestGoingTellsALateWindowTheRun(t *testing.T) {
	started := make(chan struct{})
	s, rec, _ := newServices(t, untilStopped(started))
	if g := s.Runs.Going(); g.ID != "" {
		t.Fatalf("before any run, Going gave %+v", g)
	}
	id, err := s.Runs.Start(StartRequest{Task: "lab:booking", Attempts: []string{"wrong-room", "saves-normally"}})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	g := s.Runs.Going()
	if g.ID != id || strings.Join(g.Planned, " ") != "wrong-room saves-normally" {
		t.Errorf("Going gave run %q planning %v, want %s planning wrong-room, saves-normally", g.ID, g.Planned, id)
	}
	if len(g.Events) == 0 || g.Events[0].Kind != runner.RunStarted || g.Events[0].Seq != 1 {
		t.Fatalf("Going's events %+v: want run-started first, numbered 1", g.Events)
	}
	rec.mu.Lock()
	sent := slices.Clone(rec.seqs)
	rec.mu.Unlock()
	for i, e := range g.Events {
		if e.Seq != uint64(i+1) || i >= len(sent) || sent[i] != e.Seq {
			t.Errorf("event %d (%s) is numbered %d; the window was sent %v", i, e.Kind, e.Seq, sent)
		}
	}
	if err := s.Runs.Stop(); err != nil {
		t.Fatal(err)
	}
	rec.waitEnd(t)
	if g := s.Runs.Going(); g.ID != "" {
		t.Errorf("after the run ended, Going gave %+v", g)
	}
}

// TestAStartWaitsForARunThatIsEnding checks that a Start made while the current run winds
// down (finishing its videos, say) starts once that run has ended, instead of being refused.
// The first run is stopped and held winding down until the second Start is under way.
func TestAStartWaitsForARunThatIsEnding(t *testing.T) {
	started, ending, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	// The first run's browser takes until the run is stopped, then winds down until released.
	windingDown := func(ctx context.Context) (agent.Browser, error) {
		close(started)
		<-ctx.Done()
		close(ending)
		<-release
		return nil, ctx.Err()
	}
	starts := 0 // Starts are made one after the other
	s, _, _ := newServicesLaunching(t, func(bool, string) runner.Launcher {
		if starts++; starts == 1 {
			return windingDown
		}
		close(release) // the second Start is under way: the first run may end now
		return untilStopped(make(chan struct{}))
	})
	if _, err := s.Runs.Start(StartRequest{Task: "lab:booking"}); err != nil {
		t.Fatal(err)
	}
	within(t, started, "the first run's launch")
	stopped := make(chan error, 1)
	go func() { stopped <- s.Runs.Stop() }()
	within(t, ending, "the first run's stop")
	if _, err := s.Runs.Start(StartRequest{Task: "lab:booking"}); err != nil {
		t.Errorf("a Start while the run was ending gave %v, want the new run started", err)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if err := s.Runs.Stop(); err != nil {
		t.Fatal(err)
	}
}

// within waits for c to close, failing t past 10 s.
func within(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not come in 10 s", what)
	}
}

func TestSettings(t *testing.T) {
	s, _, _ := newServices(t, nil)
	got, err := s.Settings.Get()
	if err != nil || got.Config != (agent.ConfigOverride{}) || !got.Video || !got.Screenshots {
		t.Fatalf("defaults %+v, %v; want no override, video and screenshots on", got, err)
	}
	poll := 0
	if err := s.Settings.Save(UserSettings{Config: agent.ConfigOverride{PollMS: &poll}}); err == nil || !strings.Contains(err.Error(), "poll 0 ms") {
		t.Errorf("saving a zero poll gave %v", err)
	}
	if err := s.Settings.Save(UserSettings{Harness: "partly"}); err == nil || !strings.Contains(err.Error(), `harness "partly": want on or off`) {
		t.Errorf("saving harness partly gave %v", err)
	}
	budget := 3
	want := UserSettings{Config: agent.ConfigOverride{Budget: &budget}, Headed: true, Harness: HarnessOff}
	if err := s.Settings.Save(want); err != nil {
		t.Fatal(err)
	}
	got, err = s.Settings.Get()
	if err != nil || got.Config.Budget == nil || *got.Config.Budget != 3 || !got.Headed || got.Harness != HarnessOff {
		t.Errorf("read back %+v, %v", got, err)
	}
}

// restarting is an Emitter that starts another run the moment it hears one end, as a user
// clicking ▶ right after a run finishes does.
type restarting struct {
	runs *Runs
	errs chan error
}

func (e restarting) Emit(name string, data any) {
	if p, ok := data.(RunEvent); ok && p.Kind == runner.RunFinished && cap(e.errs) > len(e.errs) {
		_, err := e.runs.Start(StartRequest{Task: "lab:booking", Attempts: []string{"saves-normally"}})
		e.errs <- err
	}
}

func TestStartRightAfterTheRunEnded(t *testing.T) {
	s, _, _ := newServices(t, func(context.Context) (agent.Browser, error) { return nil, errors.New("no browser") })
	e := restarting{runs: s.Runs, errs: make(chan error, 1)}
	s.SetEmitter(e)
	if _, err := s.Runs.Start(StartRequest{Task: "lab:booking", Attempts: []string{"saves-normally"}}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-e.errs:
		if err != nil {
			t.Errorf("Start as the run-finished event arrived: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the run never ended")
	}
}

// TestKillSwitchStopsTheWindowsRun pulls the data folder's kill switch, as `observatory stop`
// does from another process, while the window's run waits on its browser: the run is
// cancelled and recorded so, and the pull hears that these services stopped.
func TestKillSwitchStopsTheWindowsRun(t *testing.T) {
	started := make(chan struct{})
	s, rec, st := newServices(t, untilStopped(started))
	id, err := s.Runs.Start(StartRequest{Task: "lab:booking"})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := killswitch.Pull(ctx, s.Session.info.DataDir)
	if err != nil || res.Stopped != 1 {
		t.Fatalf("pull: %+v, %v; want these services stopped", res, err)
	}
	rec.waitEnd(t)
	if run, err := st.Get(id); err != nil || run.Status != agent.RunCancelled {
		t.Errorf("stored run %v, %v; want cancelled", run.Status, err)
	}
}
