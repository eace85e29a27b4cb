// Package pgtest starts a throwaway PostgreSQL cluster for a test: initdb and pg_ctl from
// Debian's postgresql package, in a temporary folder, on a free port of 127.0.0.1, stopped
// and removed when the test ends. initdb refuses to run as root, so as root the cluster runs
// as the postgres user (or nobody). Where PostgreSQL is missing the test skips, or fails when
// OBSERVATORY_REQUIRE_BROWSER or CI is set, like the browser tests.
package pgtest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"

	"observatory/backend/browser/browsertest/policy"
	"observatory/internal/asuser"
)

// Hint says how to install PostgreSQL.
const Hint = "install Debian's postgresql package (scripts/setup.sh does)"

// binGlob finds the server binaries Debian installs, one folder per major version.
const binGlob = "/usr/lib/postgresql/*/bin"

// Start starts a cluster for tb and returns its DSN, for user "observatory" and database
// "postgres" with trust authentication on 127.0.0.1.
func Start(tb testing.TB) string {
	tb.Helper()
	bin, err := binaries()
	if err != nil {
		if policy.Required() {
			tb.Fatalf("PostgreSQL is required here (%s or CI is set) but: %v\n%s", policy.RequireEnv, err, Hint)
		}
		tb.Skipf("skipped, no PostgreSQL: %v\n%s", err, Hint)
	}
	c, err := newCluster(bin)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := c.stop(); err != nil {
			tb.Errorf("stop PostgreSQL: %v", err)
		}
	})
	if err := c.start(); err != nil {
		tb.Fatal(err)
	}
	return fmt.Sprintf("postgres://observatory@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// binaries is the newest installed version's bin folder.
func binaries() (string, error) {
	dirs, _ := filepath.Glob(binGlob)
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) < version(dirs[j]) })
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i], nil
		}
	}
	return "", fmt.Errorf("no initdb in %s", binGlob)
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// cluster is one throwaway cluster.
type cluster struct {
	bin, dir string
	port     int
	// cred runs the server's commands as an unprivileged user when this process is root.
	cred    *syscall.Credential
	started bool
}

func newCluster(bin string) (*cluster, error) {
	dir, cred, err := asuser.Dir("pgtest-", "postgres", "nobody")
	if err != nil {
		return nil, err
	}
	c := &cluster{bin: bin, dir: dir, cred: cred}
	if c.port, err = freePort(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func (c *cluster) data() string { return filepath.Join(c.dir, "data") }

// run runs one of the server's commands as the cluster's user.
func (c *cluster) run(name string, args ...string) error {
	out, err := asuser.Command(c.cred, c.dir, filepath.Join(c.bin, name), args...).CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		return fmt.Errorf("%s: %w\n%s\n%s", name, err, out, log)
	}
	return nil
}

func (c *cluster) start() error {
	if err := c.run("initdb", "-D", c.data(), "-U", "observatory", "--auth=trust", "-E", "UTF8", "--no-sync"); err != nil {
		return err
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", c.port, c.dir)
	if err := c.run("pg_ctl", "-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		return err
	}
	c.started = true
	return nil
}

// stop stops the server at once and removes the cluster.
func (c *cluster) stop() error {
	var err error
	if c.started {
		err = c.run("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop")
	}
	return errors.Join(err, os.RemoveAll(c.dir))
}
