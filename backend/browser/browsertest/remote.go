//go:build unix

package browsertest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"observatory/backend/browser"
	"observatory/backend/browser/browsertest/policy"
)

// Remote is a browser that runs in its own process, as a fleet's would.
type Remote struct {
	// URL is where to reach it: a browser server's ws:// address, or Chromium's DevTools
	// http:// address.
	URL string
	cmd *exec.Cmd
}

// Kill ends the remote browser's process group at once, as a crashed machine would.
func (r *Remote) Kill() {
	if r.cmd.Process != nil {
		_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		_, _ = r.cmd.Process.Wait()
	}
}

var listening = regexp.MustCompile(`Listening on (ws://\S+)`)

// Server starts a Playwright browser server from the installed driver
// (`node cli.js run-server --host 127.0.0.1 --port 0 --unsafe`) and returns its address; it
// is killed when the test ends. --unsafe lets the tests' clients name this machine's
// Chromium, since the server has no browser of its own here.
func Server(tb testing.TB) *Remote {
	tb.Helper()
	Ready(tb)
	cli, err := browser.DriverCLI()
	if err != nil {
		policy.Unavailable(tb, err)
	}
	return runServer(tb, exec.Command(nodePath(), cli, "run-server", "--host", "127.0.0.1", "--port", "0", "--unsafe"))
}

// ServerWithBrowser starts a Playwright browser server that launches a browser of its own,
// as the official Playwright container does: clients name no executable, and need no
// --unsafe. Its browsers folder (PLAYWRIGHT_BROWSERS_PATH) holds this machine's Chromium
// where the driver expects its headless shell. env is added to the server's environment
// (PW_VERSION_OVERRIDE=1.2.0 makes it a server of another Playwright version).
func ServerWithBrowser(tb testing.TB, env ...string) *Remote {
	tb.Helper()
	Ready(tb)
	cli, err := browser.DriverCLI()
	if err != nil {
		policy.Unavailable(tb, err)
	}
	exe, err := browser.ChromiumPath()
	if err != nil || exe == "" {
		policy.Unavailable(tb, fmt.Errorf("no system Chromium for the browser server: %v", err))
	}
	var manifest struct {
		Browsers []struct{ Name, Revision string } `json:"browsers"`
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(cli), "browsers.json"))
	if err == nil {
		err = json.Unmarshal(b, &manifest)
	}
	if err != nil {
		tb.Fatalf("the driver's browsers.json: %v", err)
	}
	browsers := tb.TempDir()
	for _, br := range manifest.Browsers {
		if br.Name == "chromium-headless-shell" {
			shell := filepath.Join(browsers, "chromium_headless_shell-"+br.Revision, "chrome-headless-shell-linux64")
			if err := os.MkdirAll(shell, 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.Symlink(exe, filepath.Join(shell, "chrome-headless-shell")); err != nil {
				tb.Fatal(err)
			}
		}
	}
	cmd := exec.Command(nodePath(), cli, "run-server", "--host", "127.0.0.1", "--port", "0")
	cmd.Env = append(append(os.Environ(), "PLAYWRIGHT_BROWSERS_PATH="+browsers), env...)
	return runServer(tb, cmd)
}

func nodePath() string {
	if node := os.Getenv("PLAYWRIGHT_NODEJS_PATH"); node != "" {
		return node
	}
	return "node"
}

// runServer starts the browser server cmd and returns it once it says where it listens.
func runServer(tb testing.TB, cmd *exec.Cmd) *Remote {
	tb.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	r := start(tb, cmd)
	lines := bufio.NewScanner(out)
	found := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if m := listening.FindStringSubmatch(lines.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		for lines.Scan() { // keep draining so the server never blocks on its output
		}
	}()
	select {
	case r.URL = <-found:
		return r
	case <-time.After(30 * time.Second):
		tb.Fatal("the Playwright browser server did not say where it listens within 30 s")
	}
	return nil
}

// CDP starts this machine's Chromium headless with --remote-debugging-port on 127.0.0.1
// and returns its DevTools address; it is killed when the test ends.
func CDP(tb testing.TB) *Remote {
	tb.Helper()
	Ready(tb)
	exe, err := browser.ChromiumPath()
	if err != nil || exe == "" {
		policy.Unavailable(tb, fmt.Errorf("no system Chromium to start with remote debugging: %v", err))
	}
	profile := tb.TempDir()
	args := []string{"--headless", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
		"--user-data-dir=" + profile, "--no-first-run", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "about:blank"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	r := start(tb, exec.Command(exe, args...))
	portFile := filepath.Join(profile, "DevToolsActivePort")
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(portFile); err == nil {
			if port, _, ok := strings.Cut(string(b), "\n"); ok && port != "" {
				r.URL = "http://127.0.0.1:" + port
				return r
			}
		}
	}
	tb.Fatal("Chromium did not write its DevTools port within 30 s")
	return nil
}

// start runs cmd in its own process group, killed when the test ends.
func start(tb testing.TB, cmd *exec.Cmd) *Remote {
	tb.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		policy.Unavailable(tb, fmt.Errorf("start %s: %w", cmd.Path, err))
	}
	r := &Remote{cmd: cmd}
	tb.Cleanup(r.Kill)
	return r
}
