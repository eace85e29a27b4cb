package store

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/store/storetest"
)

// helperDirEnv tells the re-executed test binary to act as a writer into that folder.
const helperDirEnv = "OBSERVATORY_STORE_HELPER_DIR"

// TestHelperWriter is not a test: run as a child of TestKilledWriterLeavesInterruptedRun, it
// records a run step after step, printing each step's index once it is committed, until killed.
func TestHelperWriter(t *testing.T) {
	dir := os.Getenv(helperDirEnv)
	if dir == "" {
		t.Skip("helper process for TestKilledWriterLeavesInterruptedRun")
	}
	s, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	run := testRun("killed")
	a := run.Attempts[0]
	if err := s.RunStarted(run); err != nil {
		os.Exit(2)
	}
	if err := s.AttemptStarted(run.ID, 0, agent.Attempt{Slug: a.Slug, Title: a.Title, Task: a.Task, Config: a.Config, Plan: a.Plan}); err != nil {
		os.Exit(2)
	}
	for i := 0; ; i++ {
		st := a.Steps[i%len(a.Steps)]
		st.Index = i
		ev := agent.Event{Seq: i + 1, Type: "tick"}
		if err := s.StepRecorded(run.ID, a.Slug, st, []agent.Event{ev}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println(i)
	}
}

// helper re-executes the test binary to run only the helper test name, as a child process
// writing into dir, with env added to its environment. Under -race the child skips the race
// detector's one-second pause at exit.
func helper(name, dir string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$")
	cmd.Env = append(append(os.Environ(), helperDirEnv+"="+dir, "GORACE=atexit_sleep_ms=0"), env...)
	cmd.Stderr = os.Stderr
	return cmd
}

func TestKilledWriterLeavesInterruptedRun(t *testing.T) {
	dir := t.TempDir()
	cmd := helper("TestHelperWriter", dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	committed := -1
	for committed < 3 && lines.Scan() {
		fmt.Sscan(lines.Text(), &committed)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if committed < 3 {
		t.Fatalf("writer printed %d steps before dying, want at least 4", committed+1)
	}

	start := time.Now()
	s := open(t, dir)
	t.Logf("killed after >= %d committed steps; reopened in %v", committed+1, time.Since(start))
	storetest.Intact(t, filepath.Join(dir, FileName))
	got, err := s.Get("killed")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != agent.RunInterrupted {
		t.Errorf("status = %q, want interrupted", got.Status)
	}
	if n := lockFiles(t, dir); n != 1 {
		t.Errorf("%d writer lock files after reopening, want only ours: the killed writer's is stale", n)
	}
	a := got.Attempts[0]
	if a.Terminal != "" || len(a.Steps) <= committed || len(a.Steps) != len(a.Events) {
		t.Fatalf("attempt: terminal %q, %d steps, %d events; want no terminal and at least %d of each",
			a.Terminal, len(a.Steps), len(a.Events), committed+1)
	}
	want := testRun("killed").Attempts[0].Steps
	for i, st := range a.Steps {
		w := want[i%len(want)]
		w.Index = i
		if !reflect.DeepEqual(st, w) || a.Events[i].Seq != i+1 {
			t.Errorf("step %d after the kill = %+v, want %+v (event seq %d)", i, st, w, a.Events[i].Seq)
		}
	}
}
