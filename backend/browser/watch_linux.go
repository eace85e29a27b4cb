package browser

import (
	"errors"

	"golang.org/x/sys/unix"
)

// watchExit calls exited, from its own goroutine, once the process pid has exited, however it
// died. It holds a pidfd, so a reused pid can never be mistaken for it. Where the kernel has
// no pidfds (before Linux 5.3) it watches nothing, and the driver's death is noticed at the
// next call instead, which playwright-go then fails at once.
func watchExit(pid int, exited func()) {
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
				exited()
				return
			}
			if !errors.Is(err, unix.EINTR) {
				return
			}
		}
	}()
}
