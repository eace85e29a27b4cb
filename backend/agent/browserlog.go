package agent

import (
	"errors"
	"fmt"
	"strings"
)

// MaxBrowserLog is the most bytes of an attempt's BrowserLog: its first and last halves
// are kept, with a line saying how much was left out between them.
const MaxBrowserLog = 16 << 10

// LoggedError is an error that carries what the browser logged around it: the detail a
// browser adapter keeps out of the error's one-line message.
type LoggedError interface {
	error
	BrowserLog() string
}

// BrowserLogOf returns the browser log carried by err or by the first error it wraps that
// carries one, bounded to MaxBrowserLog bytes; "" when none does.
func BrowserLogOf(err error) string {
	var le LoggedError
	if !errors.As(err, &le) {
		return ""
	}
	return BoundBrowserLog(le.BrowserLog())
}

// BoundBrowserLog trims log and, past MaxBrowserLog bytes, keeps its start and its end (the
// command line and the last moments) with the size of what was cut between them.
func BoundBrowserLog(log string) string {
	log = strings.TrimSpace(log)
	if len(log) <= MaxBrowserLog {
		return log
	}
	half := MaxBrowserLog/2 - 64
	head, tail := log[:half], log[len(log)-half:]
	cut := len(log) - len(head) - len(tail)
	return strings.ToValidUTF8(head, "") + fmt.Sprintf("\n… %d bytes left out …\n", cut) + strings.ToValidUTF8(tail, "")
}
