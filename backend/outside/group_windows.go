//go:build windows

package outside

import (
	"os/exec"
	"unsafe"

	"golang.org/x/sys/windows"
)

// group is the job object the agent's process and all it starts belong to.
type group struct{ job windows.Handle }

// prepare does nothing on Windows: the process joins its job object once started.
func prepare(*exec.Cmd) {}

// adopt puts cmd's process in a new job object that kills everything in it when closed.
func adopt(cmd *exec.Cmd) (group, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return group{}, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return group{}, err
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		_ = windows.CloseHandle(job)
		return group{}, err
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		_ = windows.CloseHandle(job)
		return group{}, err
	}
	return group{job: job}, nil
}

// term ends the job at once: Windows has no SIGTERM for a console program's whole tree.
func (g group) term() { _ = windows.TerminateJobObject(g.job, 1) }

// kill ends the job and closes it.
func (g group) kill() {
	_ = windows.TerminateJobObject(g.job, 1)
	_ = windows.CloseHandle(g.job)
}
