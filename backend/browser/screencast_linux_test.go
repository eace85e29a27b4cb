//go:build linux

package browser

import (
	"bytes"
	"context"
	"syscall"
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestStreamEndsWithTheBrowser kills Chromium under a stream: Stream returns at once, and
// closing the dead page does not hang.
func TestStreamEndsWithTheBrowser(t *testing.T) {
	b := launchOwn(t, &bytes.Buffer{})
	page, err := b.NewPage(context.Background(), agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := page.Goto(context.Background(), labServer(t)); err != nil {
		t.Fatal(err)
	}
	got, ended := streamed(context.Background(), page)
	for deadline := time.Now().Add(15 * time.Second); len(got.list()) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no frame within 15 s")
		}
	}
	_, chromium, _ := processes(t, b)
	if err := syscall.Kill(-chromium.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	streamEnded(t, ended, 5*time.Second)
	closed := make(chan struct{})
	go func() { _, _ = page.Close(); close(closed) }()
	waitClosed(t, "closing the dead page", closed, 5*time.Second)
}
