package killswitch_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"observatory/backend/killswitch"
)

// TestPullStopsEveryWatcher registers two watchers on one data folder, pulls the switch and
// checks that both stopped and said so; a watcher registered after the pull is not stopped
// by it; a closed watcher is no longer waited for.
func TestPullStopsEveryWatcher(t *testing.T) {
	dataDir := t.TempDir()
	var stops [3]atomic.Int32
	watch := func(i int) *killswitch.Watcher {
		w, err := killswitch.Watch(dataDir, func() { stops[i].Add(1) })
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	a, b := watch(0), watch(1)
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := killswitch.Pull(ctx, dataDir)
	if err != nil || res != (killswitch.Result{Stopped: 2}) {
		t.Fatalf("pull: %+v, %v; want both watchers stopped", res, err)
	}
	if stops[0].Load() != 1 || stops[1].Load() != 1 {
		t.Fatalf("stops %d and %d, want one each", stops[0].Load(), stops[1].Load())
	}
	late := watch(2)
	defer late.Close()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * killswitch.Poll) // the late watcher has looked at the old pull and ignored it
	if stops[2].Load() != 0 {
		t.Fatal("a watcher registered after a pull was stopped by it")
	}
	res, err = killswitch.Pull(ctx, dataDir)
	if err != nil || res != (killswitch.Result{Stopped: 2}) {
		t.Fatalf("second pull: %+v, %v; want the two live watchers stopped, the closed one forgotten", res, err)
	}
}

// TestPullWaitsBoundedly pulls while a watcher's runs take longer to stop than the wait: the
// pull returns when its context ends, counting the watcher as still stopping.
func TestPullWaitsBoundedly(t *testing.T) {
	dataDir := t.TempDir()
	release := make(chan struct{})
	w, err := killswitch.Watch(dataDir, func() { <-release })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	res, err := killswitch.Pull(ctx, dataDir)
	if err == nil || res.Waiting != 1 {
		t.Fatalf("pull: %+v, %v; want one watcher still stopping and an error saying so", res, err)
	}
}

// TestPullWithNobodyWatching stops nothing and says so.
func TestPullWithNobodyWatching(t *testing.T) {
	res, err := killswitch.Pull(context.Background(), t.TempDir())
	if err != nil || res != (killswitch.Result{}) {
		t.Fatalf("pull: %+v, %v; want nothing to stop", res, err)
	}
}

// TestPullSweepsTheTempFilesOfDeadWriters: a temporary file a process left when it died
// writing the switch goes at the next pull; one that may still be being written stays.
func TestPullSweepsTheTempFilesOfDeadWriters(t *testing.T) {
	dataDir := t.TempDir()
	d := filepath.Join(dataDir, "killswitch")
	if err := os.MkdirAll(d, 0o700); err != nil {
		t.Fatal(err)
	}
	old, fresh := filepath.Join(d, ".tmp-123"), filepath.Join(d, ".tmp-456")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte("nonce"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	if _, err := killswitch.Pull(context.Background(), dataDir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the dead writer's temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a temporary file that may be being written went: %v", err)
	}
}
