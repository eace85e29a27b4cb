//go:build linux

package runner_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/browser/browsertest/proctest"
	"observatory/backend/labs/booking"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// chaosSeedEnv names the environment variable that replays a chaos schedule: the seed the
// test prints.
const chaosSeedEnv = "OBSERVATORY_CHAOS_SEED"

// Bounds of the chaos test. A kill lands up to maxKillDelay after a moment of the attempt's
// life: its start (the app starting, the page opening: the hang), or the end of one
// of its steps but the last (so during the next: filling, choosing, submitting, waiting on
// the gate).
const (
	maxKillDelay = 300 * time.Millisecond
	// endAfterKill bounds how long an attempt may run on after its browser was killed.
	endAfterKill = 5 * time.Second
	// attemptBound bounds every attempt, killed or not.
	attemptBound = 30 * time.Second
)

// attemptLog is what the chaos test saw of one attempt.
type attemptLog struct {
	slug              string
	started, finished time.Time
	// The browser is killed delay after the anchor-th step ends; anchor 0 is the start.
	anchor int
	delay  time.Duration
	victim string    // what is killed: "Chromium" or "the driver"
	killed time.Time // zero when the attempt ended before the kill was due
	timer  *time.Timer
}

// chaos kills a run's browser at seeded moments: each attempt gets its Chromium's process
// group or its Playwright driver killed with SIGKILL at a random moment of its life.
type chaos struct {
	t *testing.T
	// schedule is each attempt's kill, in the order attempts start.
	schedule []attemptLog

	mu      sync.Mutex
	driver  int         // PID of the current browser's driver
	current *attemptLog // the attempt under way, nil between attempts
	logs    []*attemptLog
	errors  []string // the runner's error progress
}

// launch starts headless Chromium, noting its driver: the node process the launch added.
func (c *chaos) launch(log *lockedBuffer) runner.Launcher {
	return func(ctx context.Context) (agent.Browser, error) {
		before := c.drivers()
		b, err := browser.Launch(ctx, browser.Options{Headless: true, Log: log})
		if err != nil {
			return nil, err
		}
		added := slices.DeleteFunc(c.drivers(), func(pid int) bool { return slices.Contains(before, pid) })
		if len(added) != 1 {
			c.t.Errorf("the launch added drivers %v, want one", added)
		} else {
			c.mu.Lock()
			c.driver = added[0]
			c.mu.Unlock()
		}
		return b, nil
	}
}

// drivers are the running node processes the test started.
func (c *chaos) drivers() []int {
	all, err := proctest.Descendants(os.Getpid())
	if err != nil {
		c.t.Error(err)
	}
	var out []int
	for _, p := range all {
		if p.PPID == os.Getpid() && p.Comm == "node" {
			out = append(out, p.PID)
		}
	}
	return out
}

// plan draws the kills of n attempts of the given number of steps from rng: half of them
// Chromium, half the driver, each at a random moment of the attempt's life.
func plan(rng *rand.Rand, n, steps int) []attemptLog {
	out := make([]attemptLog, n)
	for i := range out {
		out[i] = attemptLog{anchor: rng.IntN(steps), delay: time.Duration(rng.Int64N(int64(maxKillDelay))), victim: "Chromium"}
		if i%2 == 1 {
			out[i].victim = "the driver"
		}
	}
	rng.Shuffle(n, func(i, j int) { out[i].victim, out[j].victim = out[j].victim, out[i].victim })
	return out
}

func (c *chaos) emit(p runner.Progress) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch p.Kind {
	case runner.AttemptStarted:
		a := &c.schedule[len(c.logs)]
		a.slug, a.started = p.Slug, time.Now()
		c.current = a
		c.logs = append(c.logs, a)
		if a.anchor == 0 {
			a.timer = time.AfterFunc(a.delay, func() { c.kill(a) })
		}
	case runner.StepDone:
		if a := c.current; p.Step.Index == a.anchor-1 {
			a.timer = time.AfterFunc(a.delay, func() { c.kill(a) })
		}
	case runner.AttemptFinished:
		c.current.finished = time.Now()
		if c.current.timer != nil {
			c.current.timer.Stop()
		}
		c.current = nil
	case runner.Error:
		c.errors = append(c.errors, p.Message)
	}
}

// kill kills the browser of attempt a, if a is still under way: the driver, or Chromium's
// whole process group (Playwright starts Chromium as a group leader, a child of the driver).
func (c *chaos) kill(a *attemptLog) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.current != a {
		return
	}
	target := -1
	switch a.victim {
	case "the driver":
		target = c.driver
	case "Chromium": // not ffmpeg, the driver's other group leader while a video records
		below, err := proctest.Descendants(c.driver)
		if err != nil {
			c.t.Error(err)
			return
		}
		for _, p := range below {
			if p.PPID == c.driver && p.PGID == p.PID && p.Comm == "chromium" {
				target = -p.PGID
			}
		}
	}
	if target == -1 {
		c.t.Errorf("%s: no %s to kill (driver %d)", a.slug, a.victim, c.driver)
		return
	}
	if err := syscall.Kill(target, syscall.SIGKILL); err != nil {
		c.t.Errorf("%s: kill %s: %v", a.slug, a.victim, err)
		return
	}
	a.killed = time.Now()
}

// lockedBuffer is a bytes.Buffer several goroutines may write.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

// TestChaosKilledBrowsersNeverHangOrLie runs the booking lab's eight attempts, killing Chromium
// (its process group) in half of them and the Playwright driver in the other half, each at a
// seeded random moment of the attempt's life. Every attempt ends within endAfterKill of its
// kill and within attemptBound; its terminal state is honest: completed only when the final
// gate holds, ambiguous only when a commit acted, never cancelled, and an attempt its kill
// missed ends as it always does; reasons are one short line; the run finishes; no browser
// process is left; the store passes PRAGMA integrity_check.
func TestChaosKilledBrowsersNeverHangOrLie(t *testing.T) {
	browsertest.Ready(t)
	if err := proctest.Adopt(); err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(chaosSeedEnv); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("%s=%q: %v", chaosSeedEnv, s, err)
		}
	}
	t.Logf("chaos seed %d (%s=%d replays this schedule)", seed, chaosSeedEnv, seed)
	suite := booking.New()
	c := &chaos{t: t, schedule: plan(rand.New(rand.NewPCG(seed, 0)), len(suite.Attempts()), len(suite.Plan()))}
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var log lockedBuffer
	r := &runner.Runner{Suite: suite, Launch: c.launch(&log), Recorder: st, Emit: c.emit}
	run, err := r.Run(context.Background(), "chaos", runner.Options{MediaRoot: filepath.Join(dir, "media"), Video: true, Screenshots: true})
	if err != nil {
		t.Fatalf("the run failed: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	usual := map[string]agent.Terminal{
		"saves-normally": agent.Completed, "notice-nothing-saved": agent.Failed, "wrong-room": agent.Failed,
		"save-refused": agent.Rejected, "fixed-wait-slow-save": agent.Failed, "renamed-button-exact": agent.Failed,
		"slow-save-condition-wait": agent.Completed, "renamed-button-alias": agent.Completed,
	}
	attempts := run.Attempts
	if run.Status != agent.RunFinished || len(attempts) != len(usual) || len(c.logs) != len(usual) {
		t.Fatalf("run %s with %d attempts (%d seen starting), want finished with %d", run.Status, len(attempts), len(c.logs), len(usual))
	}
	kills := 0
	for i, a := range attempts {
		l := c.logs[i]
		took := l.finished.Sub(l.started)
		what := "not killed (it ended first)"
		if !l.killed.IsZero() {
			kills++
			what = fmt.Sprintf("%s killed %s in (step %d)", l.victim, l.killed.Sub(l.started).Round(time.Millisecond), l.anchor+1)
		}
		t.Logf("%-24s %s, ended %s: %s (%s)", a.Slug, what, took.Round(time.Millisecond), a.Terminal, a.Reason)
		if took > attemptBound {
			t.Errorf("%s took %s, over %s", a.Slug, took, attemptBound)
		}
		if !l.killed.IsZero() && l.finished.Sub(l.killed) > endAfterKill {
			t.Errorf("%s ran on %s after its browser was killed, over %s", a.Slug, l.finished.Sub(l.killed), endAfterKill)
		}
		committed := slices.ContainsFunc(a.Steps, func(s agent.Step) bool {
			return s.Decision.Class == agent.ClassCommit && s.Decision.Admission == agent.Allow && s.Resolved != ""
		})
		switch {
		case a.Terminal == agent.Completed && !a.Verdicts.Gate.Done:
			t.Errorf("%s completed without the final gate holding", a.Slug)
		case a.Terminal == agent.Ambiguous && !committed:
			t.Errorf("%s is ambiguous though no commit acted", a.Slug)
		case a.Terminal == agent.Cancelled:
			t.Errorf("%s is cancelled, though nobody cancelled it", a.Slug)
		case l.killed.IsZero() && a.Terminal != usual[a.Slug]:
			t.Errorf("%s was not killed yet ended %s, not %s as it always does", a.Slug, a.Terminal, usual[a.Slug])
		}
		if len(a.Reason) > 400 || strings.ContainsAny(a.Reason, "\r\n") {
			t.Errorf("%s: the reason is not one short line (%d bytes): %q", a.Slug, len(a.Reason), a.Reason)
		}
	}
	t.Logf("%d kills; %d bytes of browser logs kept out of the reasons; runner errors: %q", kills, log.Len(), c.errors)

	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left := browserLeft(t)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("browser processes left 10 s after the runs: %v", left)
		}
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("PRAGMA integrity_check = %q, %v; want ok", integrity, err)
	}
}

// browserLeft are the test's running descendants that belong to a browser: drivers,
// Chromium and its helpers, ffmpeg. The test adopts orphans, so a Chromium whose driver was
// killed still counts.
func browserLeft(t *testing.T) []proctest.Process {
	t.Helper()
	all, err := proctest.Descendants(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(all, func(p proctest.Process) bool {
		return !slices.Contains([]string{"node", "chromium", "chrome_crashpad", "ffmpeg"}, p.Comm)
	})
}
