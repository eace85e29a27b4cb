// Package keyringtest runs a private Secret Service for a test: gnome-keyring-daemon on a
// D-Bus session bus of its own, with a fresh, unlocked login keyring in a temporary folder,
// so that tests store and read real keyring entries without touching the user's. Where
// dbus-daemon or gnome-keyring-daemon is missing (scripts/setup.sh installs both on Linux),
// the test is skipped, or fails where a real environment is required (policy.Required: CI,
// or OBSERVATORY_REQUIRE_BROWSER set), as tests treat a missing Chromium.
package keyringtest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"observatory/backend/browser/browsertest/policy"
)

// hint says how to install what is missing.
const hint = "run scripts/setup.sh, which installs gnome-keyring and dbus"

// startTimeout bounds bringing the bus and the keyring up.
const startTimeout = 15 * time.Second

// Start brings up a private Secret Service and points this process's session bus at it
// (t.Setenv, so the test must not run in parallel); both daemons stop when t ends.
func Start(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		unavailable(t, fmt.Errorf("the Secret Service test runs on Linux only, not %s", runtime.GOOS))
	}
	for _, bin := range []string{"dbus-daemon", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(bin); err != nil {
			unavailable(t, fmt.Errorf("%s is not installed", bin))
		}
	}
	dir := t.TempDir()
	addr, err := startBus(t, dir)
	if err != nil {
		unavailable(t, err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	if err := startKeyring(t, dir, addr); err != nil {
		unavailable(t, err)
	}
}

// busConfig is the private bus's configuration: a session bus on a socket in its folder
// (the %s) that lets its clients talk and own names, and starts no service itself. D-Bus
// activation would start the system's own Secret Service, with the user's home, the moment a
// client asked before the test's was up.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// startBus runs dbus-daemon with a session bus listening in dir and returns its address.
func startBus(t *testing.T, dir string) (string, error) {
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, busConfig, dir), 0o600); err != nil {
		return "", err
	}
	cmd := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting dbus-daemon: %w", err)
	}
	t.Cleanup(func() { stop(cmd) })
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case addr := <-line:
		if addr == "" {
			return "", errors.New("dbus-daemon printed no address")
		}
		return addr, nil
	case <-time.After(startTimeout):
		return "", fmt.Errorf("dbus-daemon printed no address within %s", startTimeout)
	}
}

// startKeyring runs gnome-keyring-daemon's Secret Service on the bus at addr, its login
// keyring created and unlocked with a throwaway password, and waits until it answers.
func startKeyring(t *testing.T, dir, addr string) error {
	home := filepath.Join(dir, "home")
	runDir := filepath.Join(dir, "run")
	for _, d := range []string{home, runDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	cmd := exec.Command("gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets")
	cmd.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+addr, "HOME="+home,
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"), "XDG_RUNTIME_DIR="+runDir)
	cmd.Stdin = strings.NewReader("throwaway")
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting gnome-keyring-daemon: %w", err)
	}
	t.Cleanup(func() { stop(cmd) })
	deadline := time.Now().Add(startTimeout)
	for {
		_, err := keyring.Get("observatory-keyringtest", "probe")
		if errors.Is(err, keyring.ErrNotFound) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the Secret Service did not answer within %s: %v", startTimeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop ends a daemon this package started and reaps it.
func stop(cmd *exec.Cmd) {
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
}

// unavailable stops t because no private Secret Service could be had: a failure where a real
// environment is required, a skip elsewhere, both saying why and how to install it.
func unavailable(t *testing.T, err error) {
	t.Helper()
	if policy.Required() {
		t.Fatalf("a Secret Service is required here (%s or CI is set) but: %v\n%s", policy.RequireEnv, err, hint)
	}
	t.Skipf("skipped, no Secret Service: %v\n%s (set %s=1 to fail instead)", err, hint, policy.RequireEnv)
}
