package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// cpuMeter reads the CPU time of this process and everything it starts (drivers, browsers,
// their renderers, encoders), dead or alive, from a control group of the benchmark's own:
// Chromium's renderers are orphaned when they exit, so summing a process tree misses them,
// and a control group does not. Making one needs the right to (root, or a delegated group).
type cpuMeter struct {
	usage func() (float64, error) // seconds used so far
}

// groups numbers the control groups this process makes: a benchmark's group may outlive it
// while the last of its browser's processes exit, so the next benchmark makes another.
var groups atomic.Int64

// meterCPU moves this process into a fresh control group, so that it and every process it
// starts from now on are counted, and moves it back when tb ends. Nil, with a log line, when
// no group can be made.
func meterCPU(tb testing.TB) *cpuMeter {
	for _, g := range []struct {
		root, file string
		read       func([]byte) (float64, error)
	}{
		{"/sys/fs/cgroup/cpuacct", "cpuacct.usage", nanoseconds},
		{"/sys/fs/cgroup", "cpu.stat", usageUsec},
	} {
		if _, err := os.Stat(filepath.Join(g.root, "cgroup.procs")); err != nil {
			continue
		}
		dir := filepath.Join(g.root, fmt.Sprintf("observatory-bench-%d-%d", os.Getpid(), groups.Add(1)))
		if err := os.Mkdir(dir, 0o755); err != nil {
			continue
		}
		pid := []byte(strconv.Itoa(os.Getpid()))
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), pid, 0o644); err != nil {
			_ = os.Remove(dir)
			continue
		}
		tb.Cleanup(func() {
			_ = os.WriteFile(filepath.Join(g.root, "cgroup.procs"), pid, 0o644)
			_ = os.Remove(dir) // fails while a process started here lives on; the group is empty and harmless
		})
		return &cpuMeter{usage: func() (float64, error) {
			data, err := os.ReadFile(filepath.Join(dir, g.file))
			if err != nil {
				return 0, err
			}
			return g.read(data)
		}}
	}
	tb.Log("no control group could be made here, so the benchmark reports no CPU time")
	return nil
}

// nanoseconds reads cgroup v1's cpuacct.usage.
func nanoseconds(data []byte) (float64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return float64(n) / 1e9, err
}

// usageUsec reads usage_usec from cgroup v2's cpu.stat.
func usageUsec(data []byte) (float64, error) {
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "usage_usec "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return float64(n) / 1e6, err
		}
	}
	return 0, fmt.Errorf("cpu.stat has no usage_usec")
}

// selfCPU is the user and system CPU time, in seconds, this process has used so far.
func selfCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// ticksPerSecond is the unit of the CPU times in /proc/PID/stat (USER_HZ), 100 on every
// Linux that Go runs on.
const ticksPerSecond = 100

// driverCPU is the user and system CPU time, in seconds, that this process's Playwright
// drivers (its children running Node.js) have used so far; ok is false when none is found.
func driverCPU() (seconds float64, ok bool) {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	me := strconv.Itoa(os.Getpid())
	var ticks int64
	found := false
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ... utime stime: comm may hold spaces, so count from its end.
		head, rest, ok := strings.Cut(string(data), ") ")
		if !ok || !strings.HasSuffix(head, "(node") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 13 || f[1] != me {
			continue
		}
		user, _ := strconv.ParseInt(f[11], 10, 64)
		sys, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += user + sys
		found = true
	}
	return float64(ticks) / ticksPerSecond, found
}
