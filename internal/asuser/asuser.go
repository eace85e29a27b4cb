//go:build unix

// Package asuser gives a test's throwaway database server a folder and a user it may run as:
// database servers refuse to run as root, so a test running as root runs them as the first of
// the given users that exists (the server's own, or nobody) in a folder that user owns.
package asuser

import (
	"errors"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"syscall"
)

// Dir makes a new private folder named prefix followed by random characters, and returns it
// with the credential to run the server as: nil when this process is not root, else the first
// of users that exists, who then owns the folder (made under /tmp, which that user can reach).
func Dir(prefix string, users ...string) (string, *syscall.Credential, error) {
	var cred *syscall.Credential
	parent := ""
	if os.Geteuid() == 0 {
		for _, name := range users {
			u, err := user.Lookup(name)
			if err != nil {
				continue
			}
			uid, _ := strconv.Atoi(u.Uid)
			gid, _ := strconv.Atoi(u.Gid)
			cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
			break
		}
		if cred == nil {
			return "", nil, errors.New("running as root and none of the users " + strings.Join(users, ", ") + " exists to run the server as")
		}
		parent = "/tmp"
	}
	dir, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return "", nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return "", nil, err
		}
	}
	return dir, cred, nil
}

// Command is name with args, run in dir as cred (nil: as this process), in the C locale.
func Command(cred *syscall.Credential, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	return cmd
}
