//go:build !windows

package outside

import (
	"errors"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
)

// asUser makes cmd run as the OS user name, with its home and name in the environment, and
// gives that user the folders give (the claim folder it writes to). Only root can.
func asUser(cmd *exec.Cmd, name string, give ...string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return err
	}
	if os.Geteuid() != 0 {
		return errors.New("only root can start a process as another user: run Observatory as root, or start the agent with sudo -u in its command")
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return err
	}
	for _, d := range give {
		if err := os.Chown(d, int(uid), int(gid)); err != nil {
			return err
		}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	cmd.Env = append(cmd.Env, "HOME="+u.HomeDir, "USER="+u.Username, "LOGNAME="+u.Username)
	return nil
}
