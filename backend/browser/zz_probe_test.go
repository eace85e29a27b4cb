//go:build linux

package browser

import (
	"bytes"
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

func TestZZProbeRawError(t *testing.T) {
	var log bytes.Buffer
	b := launchOwn(t, &log)
	opened, err := b.NewPage(context.Background(), agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := opened.(*Page)
	raw := make(chan error, 1)
	go func() {
		_, err := p.page.Evaluate("() => new Promise(() => {})")
		raw <- err
	}()
	closed := make(chan time.Time, 1)
	p.page.OnClose(func(playwright.Page) { closed <- time.Now() })
	disc := make(chan time.Time, 1)
	b.browser.OnDisconnected(func(playwright.Browser) { disc <- time.Now() })
	time.Sleep(500 * time.Millisecond)
	_, chromium, _ := processes(t, b)
	killed := time.Now()
	syscall.Kill(-chromium.PGID, syscall.SIGKILL)
	select {
	case err := <-raw:
		t.Logf("raw error after %v: %.100q", time.Since(killed), err)
	case <-time.After(10 * time.Second):
		t.Log("no raw error in 10 s")
	}
	select {
	case at := <-closed:
		t.Logf("page close after %v", at.Sub(killed))
	default:
		t.Log("no page close")
	}
	select {
	case at := <-disc:
		t.Logf("disconnect after %v", at.Sub(killed))
	default:
		t.Log("no disconnect")
	}
}
