package bundle

import (
	"archive/zip"
	"context"
	"errors"
	"io"
	"math"
)

// maxDirectoryBytes bounds what opening an archive may read (its end record and central
// directory): MaxEntries entries take well under 1 MiB, so 4 MiB leaves room for long names
// and extra fields while refusing an archive of millions of tiny entries before they are
// all parsed into memory.
const maxDirectoryBytes = 4 << 20

var errDirectoryTooBig = errors.New("the archive's directory is over 4 MiB")

// openArchive opens the zip archive in r, refusing one over MaxBundleBytes, one whose
// directory is over maxDirectoryBytes and one with more than MaxEntries entries. Entries are
// read through the returned budgetReader, which counts the bytes they take from r and fails
// every read once ctx ends.
func openArchive(ctx context.Context, r io.ReaderAt, size int64) (*zip.Reader, *budgetReader, error) {
	if size > MaxBundleBytes {
		return nil, nil, refuse("", "the archive is %d bytes, over the %d MiB limit", size, MaxBundleBytes>>20)
	}
	br := &budgetReader{ctx: ctx, r: r, left: maxDirectoryBytes}
	zr, err := zip.NewReader(br, size)
	switch {
	case ctx.Err() != nil:
		return nil, nil, ctx.Err()
	case errors.Is(err, errDirectoryTooBig):
		return nil, nil, refuse("", "%v: too many entries (at most %d) or entries with overlong names or extra fields", err, MaxEntries)
	case err != nil:
		return nil, nil, refuse("", "not a zip archive (%v); a bundle is the .zip that `observatory export RUN -o FILE.zip` writes", err)
	case len(zr.File) > MaxEntries:
		return nil, nil, refuse("", "%d entries, over the limit of %d", len(zr.File), MaxEntries)
	}
	// The entries are read through br too; their sizes are checked entry by entry.
	br.left = math.MaxInt64
	return zr, br, nil
}

// budgetReader reads from r until it has read left bytes, or ctx ends, then fails. It counts
// the bytes read in read.
type budgetReader struct {
	ctx  context.Context
	r    io.ReaderAt
	left int64
	read int64
}

// ReadAt reads from the underlying reader, or fails with errDirectoryTooBig once the
// budget is spent, or with the context's error once it has ended.
func (b *budgetReader) ReadAt(p []byte, off int64) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if int64(len(p)) > b.left {
		return 0, errDirectoryTooBig
	}
	b.left -= int64(len(p))
	n, err := b.r.ReadAt(p, off)
	b.read += int64(n)
	return n, err
}
