package browser

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchExit calls exited, from its own goroutine, once the process pid has exited, however it
// died, with how it ended ("killed by SIGKILL", "exit status 1"; "" when that cannot be
// told). It holds a pidfd, so a reused pid can never be mistaken for it. Where the kernel has
// no pidfds (before Linux 5.3) it watches nothing, and the driver's death is noticed at the
// next call instead, which playwright-go then fails at once.
func watchExit(pid int, exited func(how string)) {
	if pid <= 0 {
		return
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return
	}
	go func() {
		defer unix.Close(fd)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			_, err := unix.Poll(fds, -1)
			if err == nil {
				exited(howExited(fd))
				return
			}
			if !errors.Is(err, unix.EINTR) {
				return
			}
		}
	}()
}

// reapWindow bounds how long howExited waits for the kernel's record of an exit while the
// child is being reaped.
const reapWindow = 100 * time.Millisecond

// howExited says how the exited child behind pidfd ended, "" when the kernel will not say.
// Whoever started the child may reap it meanwhile (playwright-go does as the driver's pipe
// closes), so it asks the pidfd itself (Linux 6.15 keeps the exit there past the reaping),
// and, while the child is unreaped, waits on it without reaping it (WNOWAIT).
func howExited(pidfd int) string {
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		info := unix.PidfdInfo{Mask: unix.PIDFD_INFO_EXIT}
		err := unix.IoctlPidfdInfo(pidfd, &info)
		if err == nil && info.Mask&unix.PIDFD_INFO_EXIT != 0 {
			return waitStatus(info.Exit_code)
		}
		if how, werr := waitChild(pidfd); werr == nil {
			return how
		}
		if err != nil || time.Since(start) > reapWindow { // no pidfd info on this kernel, or none came
			return ""
		}
	}
}

// waitChild says how the exited, unreaped child behind pidfd ended, leaving it to be reaped
// by whoever started it.
func waitChild(pidfd int) (string, error) {
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PIDFD, pidfd, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil); err != nil {
		return "", err
	}
	if info.Signo == 0 {
		return "", unix.ECHILD // not exited after all, as far as waitid sees
	}
	// siginfo_t's union starts after the three ints, aligned to a pointer; for SIGCHLD it
	// holds the pid, the uid and then the status.
	ptr := int(unsafe.Sizeof(uintptr(0)))
	union := (12 + ptr - 1) &^ (ptr - 1)
	status := *(*int32)(unsafe.Add(unsafe.Pointer(&info), union+8))
	switch info.Code {
	case cldExited:
		return fmt.Sprintf("exit status %d", status), nil
	case cldKilled, cldDumped:
		return "killed by " + unix.SignalName(unix.Signal(status)), nil
	}
	return "", nil
}

// The si_code values of a child's exit (CLD_* in <signal.h>), which x/sys/unix does not name.
const (
	cldExited = 1
	cldKilled = 2
	cldDumped = 3
)

// waitStatus says what a wait status (as waitpid gives it) means.
func waitStatus(s int32) string {
	ws := unix.WaitStatus(s)
	switch {
	case ws.Signaled():
		return "killed by " + unix.SignalName(ws.Signal())
	case ws.Exited():
		return fmt.Sprintf("exit status %d", ws.ExitStatus())
	}
	return ""
}
