//go:build !windows

package outside

import (
	"os/exec"
	"syscall"
)

// group is the agent's process group.
type group struct{ pgid int }

// prepare makes cmd start in a process group of its own.
func prepare(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// adopt is the group cmd started in.
func adopt(cmd *exec.Cmd) (group, error) { return group{pgid: cmd.Process.Pid}, nil }

func (g group) term() { _ = syscall.Kill(-g.pgid, syscall.SIGTERM) }
func (g group) kill() { _ = syscall.Kill(-g.pgid, syscall.SIGKILL) }
