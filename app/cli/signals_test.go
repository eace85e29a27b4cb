//go:build linux

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/browser/browsertest/proctest"
)

// helperArgsEnv holds the command line the re-executed test binary runs as the observatory
// process (see TestHelperProcess), its arguments separated by the unit separator, 0x1F.
const helperArgsEnv = "OBSERVATORY_CLI_HELPER_ARGS"

// TestHelperProcess is not a test: re-executed by the signal tests, it runs the command line
// in helperArgsEnv as main does, signals and all, and exits with its code.
func TestHelperProcess(t *testing.T) {
	args := os.Getenv(helperArgsEnv)
	if args == "" {
		t.Skip("helper process for the signal tests")
	}
	os.Exit(Main(Env{Stdout: os.Stdout, Stderr: os.Stderr, Assets: fstest.MapFS{}}, strings.Split(args, "\x1f")))
}

// process is the command line running as a process of its own. Its standard error goes to
// a file, not a pipe, so that waiting for it ends when it exits: the Playwright driver
// inherits the stream, and a pipe stays open until the driver has exited too.
type process struct {
	cmd    *exec.Cmd
	stderr string        // the file standard error goes to
	exited chan struct{} // closed once cmd.Wait has returned
	err    error         // cmd.Wait's, once exited is closed
}

// said returns what the process has written to standard error so far.
func (p *process) said() string {
	b, _ := os.ReadFile(p.stderr)
	return string(b)
}

// start runs the command line as a process: the test binary re-executed as the helper.
func start(t *testing.T, args ...string) *process {
	t.Helper()
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close() // the process has its own copy
	p := &process{stderr: stderr.Name(), exited: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	p.cmd.Env = append(os.Environ(), helperArgsEnv+"="+strings.Join(args, "\x1f"), "GORACE=atexit_sleep_ms=0")
	p.cmd.Stderr = stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
	return p
}

// waitToSay waits until the process has written text to standard error.
func (p *process) waitToSay(t *testing.T, text string, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); !strings.Contains(p.said(), text); time.Sleep(20 * time.Millisecond) {
		select {
		case <-p.exited:
			t.Fatalf("the process exited (%v) without saying %q:\n%s", p.err, text, p.said())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the process did not say %q within %s:\n%s", text, d, p.said())
		}
	}
}

// signal sends sig and returns how long the process then took to exit, failing t past d.
func (p *process) signal(t *testing.T, sig syscall.Signal, d time.Duration) time.Duration {
	t.Helper()
	sent := time.Now()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
		return time.Since(sent)
	case <-time.After(d):
		t.Fatalf("still running %s after %v:\n%s", d, sig, p.said())
		return 0
	}
}

// exitCode is the process's exit status once it has exited.
func (p *process) exitCode() int { return p.cmd.ProcessState.ExitCode() }

// browserProcesses are the test's descendants that belong to a browser: the driver, Chromium
// and its helpers, ffmpeg recording a video. The test adopts orphans, so these include a
// Chromium whose driver died.
func browserProcesses(t *testing.T) []proctest.Process {
	t.Helper()
	all, err := proctest.Descendants(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(all, func(p proctest.Process) bool { return !p.Browser() })
}

// waitNoBrowserLeft fails t unless every browser process has exited within d.
func waitNoBrowserLeft(t *testing.T, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		left := browserProcesses(t)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("browser processes left %s after the process exited: %v", d, left)
		}
	}
}

// storedRun reads the only run in dir's history through the CLI, as `observatory runs` and
// `observatory show` print it.
func storedRun(t *testing.T, dir string) (status agent.RunStatus, attempts []agent.Attempt) {
	t.Helper()
	code, out, errOut := run(t, "runs", "--json", "--data-dir", dir)
	var runs []struct {
		ID     string          `json:"id"`
		Status agent.RunStatus `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &runs); code != 0 || err != nil || len(runs) != 1 {
		t.Fatalf("runs: exit %d, %d runs (%v)\n%s%s", code, len(runs), err, out, errOut)
	}
	code, out, errOut = run(t, "show", runs[0].ID, "--json", "--data-dir", dir)
	var shown struct {
		Attempts []agent.Attempt `json:"attempts"`
	}
	if err := json.Unmarshal([]byte(out), &shown); code != 0 || err != nil {
		t.Fatalf("show %s: exit %d (%v)\n%s%s", runs[0].ID, code, err, out, errOut)
	}
	return runs[0].Status, shown.Attempts
}

// TestSignalsStopARun runs `observatory run --lab booking` as a process of its own and signals
// it mid-attempt. SIGTERM ends it within seconds, well inside the grace: the attempt is
// cancelled with its video finished, the run is recorded as cancelled (not interrupted), and
// no browser process is left. A second Ctrl+C quits at once with status 130, and the run it
// abandoned is then found interrupted.
func TestSignalsStopARun(t *testing.T) {
	browsertest.Ready(t)
	proctest.Adopt(t)
	// "[1/8] saves-normally ." is the first attempt with its first step done: mid-attempt.
	const midAttempt = "[1/8] saves-normally ."
	t.Run("SIGTERM", func(t *testing.T) {
		dir := t.TempDir()
		p := start(t, "run", "--lab", "booking", "--data-dir", dir)
		p.waitToSay(t, midAttempt, time.Minute)
		took := p.signal(t, syscall.SIGTERM, stopGrace+5*time.Second)
		t.Logf("exited %s after SIGTERM", took)
		if took >= stopGrace || p.exitCode() != 1 || !strings.Contains(p.said(), "was cancelled") {
			t.Errorf("exit %d after %s, want 1 (the run was cancelled) well within %s:\n%s", p.exitCode(), took, stopGrace, p.said())
		}
		status, attempts := storedRun(t, dir)
		if status != agent.RunCancelled || len(attempts) != 1 || attempts[0].Terminal != agent.Cancelled {
			t.Fatalf("stored run %s with %d attempts, want cancelled with one cancelled attempt", status, len(attempts))
		}
		videos, _ := filepath.Glob(filepath.Join(dir, "media", "*", attempts[0].Video))
		if attempts[0].Video == "" || len(videos) != 1 {
			t.Errorf("the cancelled attempt's video %q was not kept", attempts[0].Video)
		}
		waitNoBrowserLeft(t, 10*time.Second)
	})
	t.Run("second Ctrl+C", func(t *testing.T) {
		dir := t.TempDir()
		p := start(t, "run", "--lab", "booking", "--data-dir", dir)
		p.waitToSay(t, midAttempt, time.Minute)
		if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		p.waitToSay(t, "Ctrl+C again quits at once", 5*time.Second)
		took := p.signal(t, syscall.SIGINT, 2*time.Second)
		t.Logf("exited %s after the second SIGINT", took)
		if p.exitCode() != 130 {
			t.Errorf("exit %d, want 130:\n%s", p.exitCode(), p.said())
		}
		if status, _ := storedRun(t, dir); status != agent.RunInterrupted {
			t.Errorf("the abandoned run is %s, want interrupted", status)
		}
		waitNoBrowserLeft(t, 10*time.Second)
	})
}
