//go:build linux

// Package proctest finds the processes a test started, and whether they are still running,
// through /proc. It is for tests that kill browsers and check that nothing is left behind.
package proctest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// Process is one process as /proc/PID/stat shows it.
type Process struct {
	PID, PPID, PGID int
	// State is R, S, D, Z (a zombie: dead, not yet reaped) and so on.
	State byte
	// Comm is the executable's name as the kernel keeps it, at most 15 bytes.
	Comm string
	// Start is when the process started, in clock ticks since boot; with PID it names the
	// process for good, even after its PID is reused.
	Start uint64
}

// String names the process for test messages.
func (p Process) String() string { return fmt.Sprintf("%s[%d]", p.Comm, p.PID) }

// Chromium reports whether p is a Chromium process: the browser's, or its headless shell's
// under any of its names, as the kernel cuts them to 15 bytes.
func (p Process) Chromium() bool {
	return slices.Contains([]string{"chromium", "chromium-headle", "chrome-headless", "headless_shell"}, p.Comm)
}

// Browser reports whether p is one of a browser's processes: Chromium's, the crash handler's,
// the Playwright driver's or its video encoder's.
func (p Process) Browser() bool {
	return p.Chromium() || slices.Contains([]string{"node", "chrome_crashpad", "ffmpeg"}, p.Comm)
}

// List returns every process; one that exits while it is read is left out.
func List() ([]Process, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("list /proc: %w", err)
	}
	var out []Process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, err := Read(pid)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Read returns the process pid; an error wrapping fs.ErrNotExist when there is none.
func Read(pid int) (Process, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return Process{}, err
	}
	// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
	// utime stime cutime cstime priority nice threads itrealvalue starttime ...; comm may
	// hold spaces and parentheses, so the fields after it are found from its last ')'.
	s := string(raw)
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return Process{}, fmt.Errorf("/proc/%d/stat: no (comm) in %q", pid, s)
	}
	f := strings.Fields(s[closing+1:])
	if len(f) < 20 {
		return Process{}, fmt.Errorf("/proc/%d/stat: %d fields after comm, want at least 20", pid, len(f))
	}
	p := Process{PID: pid, State: f[0][0], Comm: s[open+1 : closing]}
	if p.PPID, err = strconv.Atoi(f[1]); err == nil {
		if p.PGID, err = strconv.Atoi(f[2]); err == nil {
			p.Start, err = strconv.ParseUint(f[19], 10, 64)
		}
	}
	if err != nil {
		return Process{}, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return p, nil
}

// Descendants returns the processes below root that have not exited (zombies are left out:
// they are dead, waiting only to be reaped).
func Descendants(root int) ([]Process, error) {
	all, err := List()
	if err != nil {
		return nil, err
	}
	children := map[int][]Process{}
	for _, p := range all {
		children[p.PPID] = append(children[p.PPID], p)
	}
	var out []Process
	for queue := children[root]; len(queue) > 0; queue = queue[1:] {
		p := queue[0]
		if p.State != 'Z' {
			out = append(out, p)
		}
		queue = append(queue, children[p.PID]...)
	}
	return out, nil
}

// Running reports whether p is still running: the same process (PID and start time), not a
// zombie.
func Running(p Process) bool {
	now, err := Read(p.PID)
	return err == nil && now.Start == p.Start && now.State != 'Z'
}

// Adopt makes the calling process the subreaper of everything it starts, until tb ends: a
// process whose parent dies is handed to it rather than to init, so a browser orphaned by a
// killed driver still shows among its descendants. It is undone when tb ends, so that a later
// test's process that leaves its parent on purpose (a window started apart from the test)
// does leave the test's tree.
func Adopt(tb testing.TB) {
	tb.Helper()
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		tb.Fatalf("become a subreaper: %v", err)
	}
	tb.Cleanup(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) })
}
