// Package mariadbtest starts a throwaway MariaDB server for a test: mariadb-install-db and
// mariadbd from Debian's mariadb-server package, in a temporary folder, listening only on a
// Unix socket there, stopped and removed when the test ends. As root the server runs as the
// mysql user (or nobody). Where MariaDB is missing the test skips, or fails when
// OBSERVATORY_REQUIRE_BROWSER or CI is set, like the browser tests.
package mariadbtest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"observatory/backend/browser/browsertest/policy"
	"observatory/internal/asuser"
)

// Hint says how to install MariaDB.
const Hint = "install Debian's mariadb-server package (scripts/setup.sh does)"

// The test's account and database.
const (
	User     = "observatory"
	Password = "mdb-pw-3c9e1a-never-stored"
	Database = "app"
)

// startTimeout bounds the server's start.
const startTimeout = 60 * time.Second

// Start starts a server for tb and returns the DSN (go-sql-driver/mysql's form) of User, who
// may do anything in Database.
func Start(tb testing.TB) string {
	tb.Helper()
	install, err := exec.LookPath("mariadb-install-db")
	if err == nil {
		_, err = os.Stat(server)
	}
	if err != nil {
		if policy.Required() {
			tb.Fatalf("MariaDB is required here (%s or CI is set) but: %v\n%s", policy.RequireEnv, err, Hint)
		}
		tb.Skipf("skipped, no MariaDB: %v\n%s", err, Hint)
	}
	s, err := newServer(install)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := s.stop(); err != nil {
			tb.Errorf("stop MariaDB: %v", err)
		}
	})
	if err := s.start(); err != nil {
		tb.Fatal(err)
	}
	return s.dsn(User, Password, Database)
}

// server is where Debian installs mariadbd.
const server = "/usr/sbin/mariadbd"

// instance is one throwaway server.
type instance struct {
	install, dir string
	// cred runs the server as an unprivileged user when this process is root.
	cred *syscall.Credential
	cmd  *exec.Cmd
	done chan error
}

func newServer(install string) (*instance, error) {
	dir, cred, err := asuser.Dir("mariadbtest-", "mysql", "nobody")
	if err != nil {
		return nil, err
	}
	return &instance{install: install, dir: dir, cred: cred}, nil
}

func (s *instance) data() string   { return filepath.Join(s.dir, "data") }
func (s *instance) socket() string { return filepath.Join(s.dir, "sock") }

func (s *instance) command(name string, args ...string) *exec.Cmd {
	return asuser.Command(s.cred, s.dir, name, args...)
}

func (s *instance) dsn(user, password, db string) string {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName = user, password, "unix", s.socket(), db
	return cfg.FormatDSN()
}

func (s *instance) start() error {
	// root@localhost without a password, reachable only through the folder's socket.
	out, err := s.command(s.install, "--no-defaults", "--datadir="+s.data(),
		"--auth-root-authentication-method=normal", "--skip-test-db").CombinedOutput()
	if err != nil {
		return fmt.Errorf("mariadb-install-db: %w\n%s", err, out)
	}
	s.cmd = s.command(server, "--no-defaults", "--datadir="+s.data(), "--socket="+s.socket(),
		"--skip-networking", "--pid-file="+filepath.Join(s.dir, "pid"),
		"--log-error="+filepath.Join(s.dir, "log"), "--innodb-flush-log-at-trx-commit=0")
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("mariadbd: %w", err)
	}
	s.done = make(chan error, 1)
	go func() { s.done <- s.cmd.Wait() }()
	root, err := sql.Open("mysql", s.dsn("root", "", ""))
	if err != nil {
		return err
	}
	defer root.Close()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	for root.PingContext(ctx) != nil {
		select {
		case err := <-s.done:
			s.done <- err
			log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
			return fmt.Errorf("mariadbd exited: %v\n%s", err, log)
		case <-ctx.Done():
			return fmt.Errorf("mariadbd did not answer within %v", startTimeout)
		case <-time.After(50 * time.Millisecond):
		}
	}
	for _, q := range []string{
		"CREATE DATABASE " + Database,
		fmt.Sprintf("CREATE USER '%s'@'localhost' IDENTIFIED BY '%s'", User, Password),
		fmt.Sprintf("GRANT ALL ON %s.* TO '%s'@'localhost'", Database, User),
	} {
		if _, err := root.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// stop stops the server at once and removes its folder.
func (s *instance) stop() error {
	if s.done != nil {
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	return os.RemoveAll(s.dir)
}
