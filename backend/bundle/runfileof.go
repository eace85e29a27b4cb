package bundle

import (
	"context"
	"io"
)

// RunFileOf checks the bundle in r (size bytes) entry by entry, as Import does before it
// writes anything, and returns its run file's bytes unread, for a caller that replays the
// run without importing it (verify). Its refusals are Import's.
func RunFileOf(r io.ReaderAt, size int64) ([]byte, error) {
	c, err := scan(context.Background(), r, size)
	if err != nil {
		return nil, err
	}
	return c.runFile, nil
}
