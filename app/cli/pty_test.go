package cli

import (
	"io"
	"os"
	"testing"

	"github.com/creack/pty"
)

// openTerminal opens a pseudo-terminal for the run's standard input, closed when the test
// ends, and drains the echo of what the test types into it.
func openTerminal(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	go func() { _, _ = io.Copy(io.Discard, ptmx) }()
	return ptmx, tty
}
