package filelock

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// These tests pin the three lock primitives each platform implements (lock_unix.go,
// lock_windows.go): Lock, TryLock and RemoveLocked. scripts/package.sh also cross-builds
// them for Windows and runs them under Wine (-test.run '^TestLock'), so the Windows code runs,
// not only compiles.

// lockHelperEnv tells the re-executed test binary to lock the file it names and hold it.
const lockHelperEnv = "OBSERVATORY_LOCK_HELPER_FILE"

// lockDir makes a scratch folder. It is not t.TempDir: under Wine 8, Go's os.RemoveAll fails
// ("Invalid function") on any folder with files in it, which would fail these tests for a
// reason outside the code under test. The files here are removed one by one instead.
func lockDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "observatory-lock-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			os.Remove(filepath.Join(dir, e.Name()))
		}
		if err := os.Remove(dir); err != nil {
			t.Errorf("removing the scratch folder: %v", err)
		}
	})
	return dir
}

// openLockFile opens (creating) path for locking, closing it when the test ends.
func openLockFile(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestLockExcludesOtherHandles(t *testing.T) {
	path := filepath.Join(lockDir(t), "w.lock")
	holder, other := openLockFile(t, path), openLockFile(t, path)
	if err := Lock(holder); err != nil {
		t.Fatal(err)
	}
	if ok, err := TryLock(other); ok || err != nil {
		t.Fatalf("a second handle took a held lock: %v, %v", ok, err)
	}
	if held, err := Held(path); !held || err != nil {
		t.Fatalf("Held = %v, %v while locked; want true", held, err)
	}
	if err := holder.Close(); err != nil {
		t.Fatal(err)
	}
	if ok, err := TryLock(other); !ok || err != nil {
		t.Fatalf("the lock was not free once its holder closed: %v, %v", ok, err)
	}
	if err := RemoveLocked(other, path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("RemoveLocked left the lock file: %v", err)
	}
}

func TestLockWaitsForTheHolder(t *testing.T) {
	path := filepath.Join(lockDir(t), "w.lock")
	holder, waiter := openLockFile(t, path), openLockFile(t, path)
	if err := Lock(holder); err != nil {
		t.Fatal(err)
	}
	locked := make(chan error, 1)
	go func() { locked <- Lock(waiter) }()
	select {
	case err := <-locked:
		t.Fatalf("Lock returned (%v) while another handle held the lock", err)
	case <-time.After(200 * time.Millisecond):
	}
	if err := holder.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-locked:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Lock still waits after the holder closed its handle")
	}
	if err := RemoveLocked(waiter, path); err != nil {
		t.Fatal(err)
	}
}

// TestLockHelperHold is not a test: run as a child of TestLockIsReleasedWhenItsProcessDies,
// it locks the file, says "locked" and waits to be killed.
func TestLockHelperHold(t *testing.T) {
	path := os.Getenv(lockHelperEnv)
	if path == "" {
		t.Skip("helper process for TestLockIsReleasedWhenItsProcessDies")
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := Lock(f); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	time.Sleep(time.Minute)
	os.Exit(3) // not reached unless the parent forgot to kill us
}

func TestLockIsReleasedWhenItsProcessDies(t *testing.T) {
	path := filepath.Join(lockDir(t), "w.lock")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperHold$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "locked\n" {
		t.Fatalf("helper said %q, %v; want locked", line, err)
	}
	if held, err := Held(path); !held || err != nil {
		t.Fatalf("Held = %v, %v while the helper holds it; want true", held, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// The system releases the lock with the dead process's handles; Held then deletes the file.
	if held, err := Held(path); held || err != nil {
		t.Fatalf("Held = %v, %v after the holder was killed; want false", held, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the dead holder's lock file was left: %v", err)
	}
}
