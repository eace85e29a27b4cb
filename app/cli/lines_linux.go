package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// ttyLines reads a terminal's lines itself, only while a question waits for them: nothing
// reads the terminal between questions, so what is typed then stays in the terminal's input
// queue, and Fresh discards that queue (TCFLSH) right before the prompt is printed. A line
// typed ahead can therefore never answer a question.
type ttyLines struct {
	fd int
	// pending is what was read past the line returned, discarded by Fresh.
	pending []byte
}

// pollMS bounds each wait for input, so that Line notices its context ending.
const pollMS = 100

func newLines(f *os.File) lineSource { return &ttyLines{fd: int(f.Fd())} }

func (t *ttyLines) Fresh() error {
	t.pending = t.pending[:0]
	return unix.IoctlSetInt(t.fd, unix.TCFLSH, unix.TCIFLUSH)
}

func (t *ttyLines) Line(ctx context.Context) (string, error) {
	buf := make([]byte, 512)
	for {
		if i := bytes.IndexByte(t.pending, '\n'); i >= 0 {
			line := string(t.pending[:i])
			t.pending = t.pending[i+1:]
			return line, nil
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
		fds := []unix.PollFd{{Fd: int32(t.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, pollMS)
		switch {
		case errors.Is(err, unix.EINTR), err == nil && n == 0:
			continue
		case err != nil:
			return "", err
		case fds[0].Revents&unix.POLLIN == 0: // hung up or broken, with nothing left to read
			return "", io.EOF
		}
		m, err := unix.Read(t.fd, buf)
		switch {
		case errors.Is(err, unix.EINTR), errors.Is(err, unix.EAGAIN):
			continue
		case errors.Is(err, unix.EIO), err == nil && m == 0: // the terminal hung up, or end of input
			return "", io.EOF
		case err != nil:
			return "", err
		}
		t.pending = append(t.pending, buf[:m]...)
	}
}
