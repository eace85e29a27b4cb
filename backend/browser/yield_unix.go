//go:build unix

package browser

import "syscall"

// encoderNice is the scheduling priority of a video encoder: the lowest but one, so that an
// attempt running beside it gets the CPU first.
const encoderNice = 15

// yieldCPU lowers process pid's scheduling priority to encoderNice; encoding is background
// work, and a failure to lower it only costs speed.
func yieldCPU(pid int) { _ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, encoderNice) }
