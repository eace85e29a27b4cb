//go:build !linux

package cli

import (
	"bufio"
	"context"
	"io"
	"os"
	"sync/atomic"
)

// readerLines reads a terminal's lines on a goroutine of its own, where the terminal's input
// queue cannot be flushed: each line is stamped with the number of questions shown before it
// was read, and a line stamped before the current question is discarded. A line typed ahead
// does not count, though one read in the very instant the prompt appears may.
type readerLines struct {
	lines chan stamped // closed at the end of input
	shown atomic.Uint64
}

// stamped is one line and how many questions had been shown when it was read.
type stamped struct {
	text  string
	shown uint64
}

func newLines(f *os.File) lineSource {
	r := &readerLines{lines: make(chan stamped, 16)}
	go func() {
		defer close(r.lines)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			r.lines <- stamped{sc.Text(), r.shown.Load()}
		}
	}()
	return r
}

func (r *readerLines) Fresh() error {
	r.shown.Add(1)
	return nil
}

func (r *readerLines) Line(ctx context.Context) (string, error) {
	for {
		select {
		case l, ok := <-r.lines:
			switch {
			case !ok:
				return "", io.EOF
			case l.shown == r.shown.Load():
				return l.text, nil
			}
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}
