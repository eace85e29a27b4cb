//go:build unix

package liveproc

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"observatory/backend/internal/filelock"
)

// TestAFIFOInTheFolderIsNeitherReadNorWaitedOn: a FIFO named as a discovery file (opening
// it for reading would block until a writer comes) is refused, and the window's scan goes on.
func TestAFIFOInTheFolderIsNeitherReadNorWaitedOn(t *testing.T) {
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "f1", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	fifo := filepath.Join(data, folder, "f0"+infoExt)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// a lock held for it, so the scan goes as far as reading it
	held, err := os.OpenFile(filepath.Join(data, folder, "f0"+lockExt), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := filelock.Lock(held); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := readInfo(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("a FIFO was read as a discovery file: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO named as a discovery file blocked")
	}
	w := &window{}
	watcher := Watch(data, "desktop", w, always)
	defer watcher.Close()
	until(t, "the window to follow the real run past the FIFO", h.Watched)
}
