package outside

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"observatory/backend/store"
)

// MaxLog is how many bytes of the process's output (stdout and stderr together) are kept:
// the last ones.
const MaxLog = 64 << 10

// stopGrace is how long a process group has between SIGTERM and SIGKILL (on Windows the job
// object is terminated at once).
const stopGrace = 3 * time.Second

// process is one run of the agent's command, in a process group (a job object on Windows) of
// its own, so that stopping it stops everything it started.
type process struct {
	cmd  *exec.Cmd
	log  *tail
	out  *tail // stdout alone, for the claim on its last line
	done chan struct{}
	err  error // the exit, once done is closed
	grp  group
	stop sync.Once
}

// start starts argv with the environment env, less what names Observatory's data folder (see
// namesDataFolder), as the OS user user (empty: this process's), who is given the folders
// give; its output is kept bounded.
func start(argv []string, dir string, env []string, user string, give ...string) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("no agent command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = slices.DeleteFunc(env, namesDataFolder)
	p := &process{cmd: cmd, log: &tail{max: MaxLog}, out: &tail{max: MaxLog}, done: make(chan struct{})}
	cmd.Stdout = multi{p.log, p.out}
	cmd.Stderr = p.log
	prepare(cmd)
	if user != "" {
		if err := asUser(cmd, user, give...); err != nil {
			return nil, fmt.Errorf("run the agent as %q: %w", user, err)
		}
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the agent %q: %w", argv[0], err)
	}
	grp, err := adopt(cmd)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("put the agent in a process group: %w", err)
	}
	p.grp = grp
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// terminate stops the process and everything it started: SIGTERM to its group, SIGKILL after
// stopGrace; it returns once the process has exited and its group is gone.
func (p *process) terminate() {
	p.stop.Do(func() {
		p.grp.term()
		select {
		case <-p.done:
		case <-time.After(stopGrace):
		}
		p.grp.kill() // whatever it started and left behind goes too
		<-p.done
	})
}

// wait waits until the process exits or ctx ends.
func (p *process) wait(ctx context.Context) error {
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// exitCode is the process's exit status once it has exited: -1 when a signal ended it.
func (p *process) exitCode() int { return p.cmd.ProcessState.ExitCode() }

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	return len(b), nil
}

// String is what was kept, marked when earlier output was cut.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return "[earlier output cut]\n" + string(t.buf)
	}
	return string(t.buf)
}

// lastLine is the last non-empty line kept.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := bytes.Split(bytes.TrimRight(t.buf, "\r\n"), []byte("\n"))
	return string(bytes.TrimSpace(lines[len(lines)-1]))
}

// multi writes to each writer; a tail never fails.
type multi []*tail

func (m multi) Write(b []byte) (int, error) {
	for _, t := range m {
		_, _ = t.Write(b)
	}
	return len(b), nil
}

// namesDataFolder says whether kv, an environment entry, names Observatory's data folder: the
// agent is given no path to the runs' live channel (see liveproc), nor to the runs, media
// and settings it is judged by.
func namesDataFolder(kv string) bool {
	return strings.HasPrefix(kv, store.DataDirEnv+"=")
}
