//go:build !windows

package outside

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTerminateStopsTheWholeGroup: stopping an agent stops what it started too, even a child
// that ignores SIGTERM.
func TestTerminateStopsTheWholeGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child")
	p, err := start([]string{"sh", "-c", `sh -c 'trap "" TERM; sleep 60' & echo $! > ` + pidFile + `; wait`}, "", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var child int
	for deadline := time.Now().Add(5 * time.Second); child == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(pidFile)
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if child == 0 {
		t.Fatal("the agent's child never started")
	}
	p.terminate()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(child, 0) != nil {
			return
		}
	}
	t.Errorf("the agent's child %d outlived it", child)
}
