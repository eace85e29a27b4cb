//go:build linux

package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest/policy"
	"observatory/backend/browser/browsertest/proctest"
)

// launchOwn starts a Chromium of the test's own, which it may kill, with Playwright's error
// detail written to log; it is closed when the test ends.
func launchOwn(t *testing.T, log *bytes.Buffer) *Browser {
	t.Helper()
	needDriver(t)
	b, err := Launch(context.Background(), Options{Headless: true, Log: log})
	if err != nil {
		policy.Unavailable(t, err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// TestHeadlessLaunchRunsTheHeadlessShell: with a headless shell installed beside the browser
// found, a headless launch runs it, not the full browser.
func TestHeadlessLaunchRunsTheHeadlessShell(t *testing.T) {
	chosen, err := Locator{}.Choose("")
	shell := chosen.Headless()
	if err != nil || shell.Kind != KindHeadlessShell || launcherScript(shell.Path) {
		t.Skipf("no headless shell binary beside the browser found (%+v, %v)", shell, err)
	}
	_, chromium, _ := processes(t, launchOwn(t, &bytes.Buffer{}))
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", chromium.PID))
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.EvalSymlinks(shell.Path)
	if err != nil {
		t.Fatal(err)
	}
	if exe != want {
		t.Errorf("a headless launch runs %s, want the headless shell %s", exe, want)
	}
}

// processes returns b's driver, its Chromium (the driver's child that leads its own process
// group, as Playwright starts it) and every process of the two.
func processes(t *testing.T, b *Browser) (driver, chromium proctest.Process, all []proctest.Process) {
	t.Helper()
	driver, err := proctest.Read(b.pw.Pid())
	if err != nil {
		t.Fatal(err)
	}
	below, err := proctest.Descendants(driver.PID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range below {
		if p.PPID == driver.PID && p.PGID == p.PID && p.Chromium() {
			chromium = p
		}
	}
	if chromium.PID == 0 {
		t.Fatalf("no Chromium among the driver's processes %v", below)
	}
	return driver, chromium, append(below, driver)
}

// hang starts a call on p that only the page's death can end, and returns once the page is
// running it; the call's error, as p reports it, arrives on the channel.
func hang(t *testing.T, p *Page) <-chan error {
	t.Helper()
	ended := make(chan error, 1)
	go func() {
		ended <- p.fail("wait forever", do(context.Background(), limits{life: p.life, timeout: time.Hour}, func() error {
			_, err := p.page.Evaluate("() => { window.hung = true; return new Promise(() => {}) }")
			return err
		}))
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if v, err := p.page.Evaluate("() => window.hung === true"); err == nil && v == true {
			return ended
		}
		if time.Now().After(deadline) {
			t.Fatal("the page never began the call")
		}
	}
}

// waitClosed fails t unless ch closes within d.
func waitClosed(t *testing.T, what string, ch <-chan struct{}, d time.Duration) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(d):
		t.Fatalf("%s still open %s later", what, d)
	}
}

// waitExited fails t unless every process in ps has exited within d.
func waitExited(t *testing.T, ps []proctest.Process, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		var left []proctest.Process
		for _, p := range ps {
			if proctest.Running(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still running %s after: %v", d, left)
		}
	}
}

// TestDeathEndsCallsAtOnce kills Chromium (its whole process group) and, separately, the
// Playwright driver under a page call that would otherwise never end. The call fails at once
// with ErrBrowserGone saying which died, in one short line; page and browser report they are
// gone; every later call, and a new page, fail without waiting; Close reports nothing for a
// dead browser and leaves no truncated video behind; and none of the browser's processes is
// left.
func TestDeathEndsCallsAtOnce(t *testing.T) {
	tests := []struct {
		name string
		kill func(driver, chromium proctest.Process) error
		says string
	}{
		{"Chromium killed", func(_, chromium proctest.Process) error { return syscall.Kill(-chromium.PGID, syscall.SIGKILL) }, "Chromium exited"},
		{"driver killed", func(driver, _ proctest.Process) error { return syscall.Kill(driver.PID, syscall.SIGKILL) }, "the Playwright driver exited: killed by SIGKILL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			b := launchOwn(t, &log)
			ctx := context.Background()
			media := t.TempDir()
			opened, err := b.NewPage(ctx, agent.PageOptions{MediaDir: media, Name: "dies", Media: agent.Media{Video: true}})
			if err != nil {
				t.Fatal(err)
			}
			p := opened.(*Page)
			if err := p.Goto(ctx, labServer(t)); err != nil {
				t.Fatal(err)
			}
			ended := hang(t, p)
			driver, chromium, all := processes(t, b)

			killed := time.Now()
			if err := tt.kill(driver, chromium); err != nil {
				t.Fatal(err)
			}
			select {
			case err = <-ended:
			case <-time.After(10 * time.Second):
				t.Fatal("the call is still waiting 10 s after the kill")
			}
			t.Logf("the call ended %s after the kill: %v", time.Since(killed), err)
			if !errors.Is(err, agent.ErrBrowserGone) || !strings.Contains(err.Error(), tt.says) || strings.Contains(err.Error(), "\n") {
				t.Errorf("the call failed with %q, want one line of ErrBrowserGone saying %q", err, tt.says)
			}
			// Playwright appends Chromium's launch log to the calls its death ends: the error
			// carries it apart from its message, and so do the errors that follow.
			if tt.name == "Chromium killed" {
				if log := agent.BrowserLogOf(err); !strings.Contains(log, "<launching>") || strings.Contains(err.Error(), "<launching>") {
					t.Errorf("the call's browser log %.80q, want Chromium's launch log apart from the message", log)
				}
				defer func() {
					if log := agent.BrowserLogOf(p.GoneErr()); !strings.Contains(log, "<launching>") {
						t.Errorf("the page's GoneErr carries browser log %.80q, want the launch log", log)
					}
				}()
			}
			waitClosed(t, "the page's Gone", p.Gone(), time.Second)
			waitClosed(t, "the browser's Gone", b.Gone(), 5*time.Second)

			later := time.Now()
			if _, err := p.Observe(ctx); !errors.Is(err, agent.ErrBrowserGone) {
				t.Errorf("Observe after the kill = %v, want ErrBrowserGone", err)
			}
			if _, err := b.NewPage(ctx, agent.PageOptions{}); !errors.Is(err, agent.ErrBrowserGone) {
				t.Errorf("NewPage after the kill = %v, want ErrBrowserGone", err)
			}
			if d := time.Since(later); d > time.Second {
				t.Errorf("calls after the kill took %s, want them refused at once", d)
			}
			if rec, err := p.Close(); err != nil || rec.Video != "" {
				t.Errorf("closing the dead page: %v, recorded %+v; want nothing recorded", err, rec)
			}
			if left, _ := os.ReadDir(media); len(left) != 0 {
				t.Errorf("the dead page left %d files in the media folder, want none (%s)", len(left), left[0].Name())
			}
			if err := b.Close(); err != nil {
				t.Errorf("closing the dead browser: %v", err)
			}
			waitExited(t, all, 10*time.Second)
		})
	}
}

// TestFrozenBrowserTimesOut stops Chromium (SIGSTOP) so that it never answers: a page call and
// opening a page each give up at the call deadline, and the page that opens once Chromium
// runs again is closed in the background, its video deleted.
func TestFrozenBrowserTimesOut(t *testing.T) {
	t.Parallel()
	b := launchOwn(t, &bytes.Buffer{})
	created, closed := make(chan struct{}, 2), make(chan struct{}, 2)
	b.browser.OnContext(func(bc playwright.BrowserContext) {
		created <- struct{}{}
		bc.OnClose(func(playwright.BrowserContext) { closed <- struct{}{} })
	})
	ctx := context.Background()
	p, err := b.NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	<-created
	if err := p.Goto(ctx, labServer(t)); err != nil {
		t.Fatal(err)
	}
	_, chromium, _ := processes(t, b)
	b.timeout = 2 * time.Second // only now: on a busy machine opening the page takes longer
	if err := syscall.Kill(-chromium.PGID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	media := t.TempDir()
	thawed := false
	thaw := func() {
		if !thawed {
			thawed = true
			_ = syscall.Kill(-chromium.PGID, syscall.SIGCONT)
		}
	}
	t.Cleanup(thaw)

	for name, call := range map[string]func() error{
		"Observe": func() error { _, err := p.Observe(ctx); return err },
		"NewPage": func() error {
			_, err := b.NewPage(ctx, agent.PageOptions{MediaDir: media, Media: agent.Media{Video: true}})
			return err
		},
	} {
		start := time.Now()
		err := call()
		took := time.Since(start)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer from the browser within 2s") {
			t.Errorf("%s on a frozen browser = %v, want the call deadline", name, err)
		}
		if took < b.timeout || took > b.timeout+3*time.Second {
			t.Errorf("%s gave up after %s, want about %s", name, took, b.timeout)
		}
	}

	thaw()
	for _, ch := range []chan struct{}{created, closed} {
		select {
		case <-ch:
		case <-time.After(20 * time.Second):
			t.Fatal("the page opened after its caller gave up was not closed")
		}
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		videos, _ := filepath.Glob(filepath.Join(media, "*.webm"))
		if len(videos) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the abandoned page's video was not deleted: %v", videos)
		}
	}
}

// TestLaunchOfADyingChromium launches a "Chromium" that says something on its standard error
// and is killed at once: Launch fails with one line saying what failed, and the error carries
// the launch log (the command line, what the browser said, how it exited) as its browser
// log, for whoever keeps it beside the reason.
func TestLaunchOfADyingChromium(t *testing.T) {
	needDriver(t)
	exe := filepath.Join(t.TempDir(), "chromium")
	script := "#!/bin/sh\necho 'chromium: dying at launch' >&2\nkill -KILL $$\n"
	if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	b, err := Launch(context.Background(), Options{Headless: true, ExecutablePath: exe, Log: &log})
	if err == nil {
		b.Close()
		t.Fatal("a Chromium killed at launch was launched")
	}
	t.Logf("Launch: %v", err)
	if !strings.HasPrefix(err.Error(), "launch Chromium "+exe+": ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Launch failed with %q, want one line naming the executable", err)
	}
	got := agent.BrowserLogOf(err)
	for _, want := range []string{"<launching> " + exe, "chromium: dying at launch"} {
		if !strings.Contains(got, want) || strings.Contains(err.Error(), want) {
			t.Errorf("the launch's browser log lacks %q, or the message has it:\n%s", want, got)
		}
	}
}

// TestADriverKilledAsItStartsSaysSo launches through a Node.js that kills itself when it
// runs the driver, first when asked its version, then when asked to run: the launch says the
// driver died, never that it is not installed, which it is.
func TestADriverKilledAsItStartsSaysSo(t *testing.T) {
	needDriver(t)
	if err := UseSystemNode(); err != nil {
		t.Fatal(err)
	}
	node := os.Getenv("PLAYWRIGHT_NODEJS_PATH")
	if node == "" {
		t.Skip("no Node.js on PATH to wrap")
	}
	tests := []struct{ name, when, says string }{
		{"asked its version", "--version", "the Playwright driver exited as it started: signal: killed"},
		{"asked to run", "run-driver", "the Playwright driver did not start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wrapper := filepath.Join(t.TempDir(), "node")
			script := fmt.Sprintf("#!/bin/sh\n[ \"$2\" = %q ] && kill -KILL $$\nexec %q \"$@\"\n", tt.when, node)
			if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PLAYWRIGHT_NODEJS_PATH", wrapper)
			b, err := Launch(context.Background(), Options{Headless: true, Log: &bytes.Buffer{}})
			if err == nil {
				b.Close()
				t.Fatal("the launch succeeded through a driver that kills itself")
			}
			if errors.Is(err, ErrNoDriver) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("the launch says %q, want %q and not that the driver is not installed", err, tt.says)
			}
		})
	}
}
