// Package mediawikitest serves a throwaway MediaWiki for a test: scripts/mediawiki.sh installs
// Debian's mediawiki into a temporary folder, with its SQLite database there, and serves it
// with PHP's built-in server on a free port of 127.0.0.1, stopped when the test ends. Where
// MediaWiki or PHP is missing the test skips, or fails when OBSERVATORY_REQUIRE_BROWSER or CI
// is set, like the browser tests.
package mediawikitest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"observatory/backend/browser/browsertest/policy"
)

// Hint says how to install MediaWiki.
const Hint = "install Debian's mediawiki, php-cli and php-sqlite3 packages (scripts/setup.sh does)"

// AdminPassword is the password of the wiki's administrator, "Admin".
const AdminPassword = "mw-admin-5d1e7b-never-stored"

// startTimeout bounds installing the wiki and its first page.
const startTimeout = 90 * time.Second

// Wiki is a served wiki.
type Wiki struct {
	// URL is the wiki's address, without a trailing slash.
	URL string
	// Dir holds LocalSettings.php and the data folder.
	Dir string
	// DB is the wiki's SQLite database.
	DB string
}

// Start installs and serves a wiki for tb.
func Start(tb testing.TB) *Wiki {
	tb.Helper()
	script, err := scriptPath()
	if err == nil {
		_, err = os.Stat("/usr/share/mediawiki/maintenance/install.php")
	}
	if err == nil {
		_, err = exec.LookPath("php")
	}
	if err != nil {
		if policy.Required() {
			tb.Fatalf("MediaWiki is required here (%s or CI is set) but: %v\n%s", policy.RequireEnv, err, Hint)
		}
		tb.Skipf("skipped, no MediaWiki: %v\n%s", err, Hint)
	}
	port, err := freePort()
	if err != nil {
		tb.Fatal(err)
	}
	w := &Wiki{URL: "http://127.0.0.1:" + strconv.Itoa(port), Dir: tb.TempDir()}
	w.DB = filepath.Join(w.Dir, "data", "wiki.sqlite")
	log, err := os.Create(filepath.Join(w.Dir, "server.log"))
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(script, w.Dir, strconv.Itoa(port))
	cmd.Env = append(os.Environ(), "MEDIAWIKI_ADMIN_PASSWORD="+AdminPassword)
	cmd.Stdout, cmd.Stderr = log, log
	// Its own process group: PHP's server workers outlive their parent unless stopped too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tb.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		log.Close()
	})
	if err := w.wait(done); err != nil {
		out, _ := os.ReadFile(log.Name())
		tb.Fatalf("MediaWiki did not start: %v\n%s", err, out)
	}
	return w
}

// Configure appends PHP to the wiki's LocalSettings.php, which every request reads.
func (w *Wiki) Configure(tb testing.TB, php string) {
	tb.Helper()
	f, err := os.OpenFile(filepath.Join(w.Dir, "LocalSettings.php"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "\n%s\n", php); err != nil {
		tb.Fatal(err)
	}
}

// wait waits until the main page answers, or the server exits.
func (w *Wiki) wait(done chan error) error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, w.URL+"/index.php?title=Main_Page", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-done:
			done <- err
			return fmt.Errorf("the server exited: %v", err)
		case <-ctx.Done():
			return fmt.Errorf("no answer within %v", startTimeout)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// scriptPath is scripts/mediawiki.sh in this source tree.
func scriptPath() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot locate the source tree")
	}
	p := filepath.Join(filepath.Dir(file), "..", "..", "scripts", "mediawiki.sh")
	_, err := os.Stat(p)
	return p, err
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
