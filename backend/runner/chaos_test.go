//go:build linux

package runner_test

import (
	"bytes"
	"context"
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
	"observatory/backend/store/storetest"
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
	// relaunched is when the runner gave the attempt a new browser after the kill (one killed
	// before the attempt's page opened is replaced), zero when it did not: the kill did not
	// end such an attempt, which then runs its course.
	relaunched time.Time
	timer      *time.Timer
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
	// launched are the drivers the round started, and groups the process groups of their
	// Chromiums: after the round none of them may have a live process.
	launched []proctest.Process
	groups   []int
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
			return b, nil
		}
		driver, err := proctest.Read(added[0])
		if err != nil {
			c.t.Error(err)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if a := c.current; a != nil && !a.killed.IsZero() {
			a.relaunched = time.Now()
		}
		c.driver = added[0]
		c.launched = append(c.launched, driver)
		if pgid := c.chromiumGroup(); pgid != 0 {
			c.groups = append(c.groups, pgid)
		} else {
			c.t.Errorf("no Chromium below the driver %d", c.driver)
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

// chromiumGroup is the process group of the current driver's Chromium (Playwright starts
// Chromium as a group leader, a child of the driver), 0 if there is none. Call it with c.mu
// held.
func (c *chaos) chromiumGroup() int {
	below, err := proctest.Descendants(c.driver)
	if err != nil {
		c.t.Error(err)
		return 0
	}
	for _, p := range below {
		if p.PPID == c.driver && p.PGID == p.PID && p.Chromium() {
			return p.PGID
		}
	}
	return 0
}

// waitAllExited fails the test unless, within d, no process of the round's browsers is
// left: scanning every process, none is one of its drivers (same PID and start time) or in
// one of its Chromiums' process groups; and none of the test's descendants is a browser's.
func (c *chaos) waitAllExited(d time.Duration) {
	c.t.Helper()
	c.mu.Lock()
	launched, groups := slices.Clone(c.launched), slices.Clone(c.groups)
	c.mu.Unlock()
	for deadline := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		all, err := proctest.List()
		if err != nil {
			c.t.Fatal(err)
		}
		left := slices.DeleteFunc(all, func(p proctest.Process) bool {
			if p.State == 'Z' {
				return true // dead, waiting only to be reaped
			}
			ours := slices.Contains(groups, p.PGID) || slices.ContainsFunc(launched, func(l proctest.Process) bool { return l.PID == p.PID && l.Start == p.Start })
			return !ours
		})
		left = append(left, browserLeft(c.t)...)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("browser processes left %s after the round (drivers %v, Chromium groups %v): %v", d, launched, groups, left)
		}
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
		if pgid := c.chromiumGroup(); pgid != 0 {
			target = -pgid
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

// Bounds of the chaos rounds: each round runs roundAttempts of the booking lab's attempts,
// drawn by its seed; rounds start until chaosBudget has passed, at least minRounds of them.
const (
	roundAttempts = 4
	minRounds     = 2
	chaosBudget   = 60 * time.Second
)

// usual is how each booking attempt ends when nothing kills its browser.
var usual = map[string]agent.Terminal{
	"saves-normally": agent.Completed, "notice-nothing-saved": agent.Failed, "wrong-room": agent.Failed,
	"save-refused": agent.Rejected, "fixed-wait-slow-save": agent.Failed, "renamed-button-exact": agent.Failed,
	"slow-save-condition-wait": agent.Completed, "renamed-button-alias": agent.Completed,
}

// TestChaosKilledBrowsersNeverHangOrLie runs rounds of the booking lab's attempts, each round
// its own seeded draw of attempts and kills: Chromium's process group or the Playwright
// driver killed with SIGKILL at a random moment of each attempt's life. Each round's seed is
// logged; OBSERVATORY_CHAOS_SEED=SEED replays that one round. In every round every attempt
// ends within endAfterKill of its kill and within attemptBound, and honestly (see
// checkHonest); reasons are one short line; the run finishes; no process of any browser it
// launched is left, by process group and PID; and the store, shared by the rounds, passes
// PRAGMA integrity_check.
func TestChaosKilledBrowsersNeverHangOrLie(t *testing.T) {
	browsertest.Ready(t)
	proctest.Adopt(t)
	seeds := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0))
	replay := uint64(0)
	if s := os.Getenv(chaosSeedEnv); s != "" {
		var err error
		if replay, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("%s=%q: %v", chaosSeedEnv, s, err)
		}
	}
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	kills, rounds := 0, 0
	for began := time.Now(); rounds < minRounds || time.Since(began) < chaosBudget; rounds++ {
		seed := seeds.Uint64()
		if replay != 0 {
			seed = replay
		}
		t.Logf("round %d: seed %d (%s=%d replays this round)", rounds+1, seed, chaosSeedEnv, seed)
		kills += chaosRound(t, st, dir, rounds, seed)
		if replay != 0 || t.Failed() {
			rounds++
			break
		}
	}
	t.Logf("%d rounds, %d kills", rounds, kills)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	storetest.Intact(t, filepath.Join(dir, store.FileName))
}

// chaosRound runs one round, drawn from seed, recording into st, and returns how many of its
// kills landed.
func chaosRound(t *testing.T, st *store.Store, dir string, round int, seed uint64) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0))
	suite := booking.New()
	var slugs []string
	for _, a := range suite.Attempts() {
		slugs = append(slugs, a.Slug)
	}
	rng.Shuffle(len(slugs), func(i, j int) { slugs[i], slugs[j] = slugs[j], slugs[i] })
	slugs = slugs[:roundAttempts]
	c := &chaos{t: t, schedule: plan(rng, len(slugs), len(suite.Plan()))}
	var log lockedBuffer
	r := &runner.Runner{Suite: suite, Launch: c.launch(&log), Recorder: st, Emit: c.emit}
	run, err := r.Run(context.Background(), fmt.Sprintf("chaos-%d", round+1), runner.Options{Attempts: slugs,
		MediaRoot: filepath.Join(dir, "media"), Media: agent.Media{Video: true, Screenshots: true}})
	if err != nil {
		t.Fatalf("round %d: the run failed: %v", round+1, err)
	}
	if run.Status != agent.RunFinished || len(run.Attempts) != len(slugs) || len(c.logs) != len(slugs) {
		t.Fatalf("round %d: run %s with %d attempts (%d seen starting), want finished with %d", round+1, run.Status, len(run.Attempts), len(c.logs), len(slugs))
	}
	kills := 0
	for i, a := range run.Attempts {
		l := c.logs[i]
		took := l.finished.Sub(l.started)
		what := "not killed (it ended first)"
		if !l.killed.IsZero() {
			kills++
			what = fmt.Sprintf("%s killed %s in (step %d)", l.victim, l.killed.Sub(l.started).Round(time.Millisecond), l.anchor+1)
			if !l.relaunched.IsZero() {
				what += fmt.Sprintf(", a new browser %s later", l.relaunched.Sub(l.killed).Round(time.Millisecond))
			}
		}
		t.Logf("%-24s %s, ended %s: %s (%s); browser log %d bytes", a.Slug, what, took.Round(time.Millisecond), a.Terminal, a.Reason, len(a.BrowserLog))
		if took > attemptBound {
			t.Errorf("%s took %s, over %s", a.Slug, took, attemptBound)
		}
		if !l.killed.IsZero() && l.relaunched.IsZero() && l.finished.Sub(l.killed) > endAfterKill {
			t.Errorf("%s ran on %s after its browser was killed, over %s", a.Slug, l.finished.Sub(l.killed), endAfterKill)
		}
		checkHonest(t, a, !l.killed.IsZero())
	}
	t.Logf("round %d: %d kills; %d bytes of browser logs written; runner errors: %q", round+1, kills, log.Len(), c.errors)
	c.waitAllExited(10 * time.Second)
	return kills
}

// checkHonest checks how attempt a ended. An attempt whose kill ended it (its reason says the
// browser went) is failed, or ambiguous when a commit acted and may have crossed; never
// completed, rejected, exhausted or cancelled. One that ends otherwise (not killed, or killed
// once its outcome was settled) ends as it always does. Completed always means the gate
// holds and the lab's records show the reservation as asked. The reason is one short line,
// and the browser's log, if any, is bounded and kept out of it.
func checkHonest(t *testing.T, a agent.Attempt, killed bool) {
	t.Helper()
	committed := slices.ContainsFunc(a.Steps, func(s agent.Step) bool {
		return s.Decision.Class == agent.ClassCommit && s.Decision.Admission == agent.Allow && s.Resolved != ""
	})
	byKill := strings.Contains(a.Reason, "the browser closed or crashed") || strings.Contains(a.Reason, "could not open a browser page")
	switch {
	case a.Terminal == agent.Completed && (!a.Verdicts.Gate.Done || !a.Verdicts.Truth.Done):
		t.Errorf("%s completed without the gate holding and the lab's records agreeing", a.Slug)
	case byKill && !killed:
		t.Errorf("%s was not killed, yet its reason says the browser went: %s", a.Slug, a.Reason)
	case byKill && a.Terminal == agent.Ambiguous && !committed:
		t.Errorf("%s is ambiguous though no commit acted", a.Slug)
	case byKill && a.Terminal != agent.Failed && a.Terminal != agent.Ambiguous:
		t.Errorf("%s ended %s from the kill; a kill ends an attempt failed or ambiguous", a.Slug, a.Terminal)
	case !byKill && a.Terminal != usual[a.Slug]:
		t.Errorf("%s ended %s (%s), not from the kill and not %s as it always does", a.Slug, a.Terminal, a.Reason, usual[a.Slug])
	}
	if len(a.Reason) > 400 || strings.ContainsAny(a.Reason, "\r\n") {
		t.Errorf("%s: the reason is not one short line (%d bytes): %q", a.Slug, len(a.Reason), a.Reason)
	}
	if len(a.BrowserLog) > agent.MaxBrowserLog || (a.BrowserLog != "" && strings.Contains(a.Reason, a.BrowserLog)) {
		t.Errorf("%s: a browser log of %d bytes, over %d or inside the reason", a.Slug, len(a.BrowserLog), agent.MaxBrowserLog)
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
	return slices.DeleteFunc(all, func(p proctest.Process) bool { return !p.Browser() })
}
