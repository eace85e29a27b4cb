package bundle

import "io"

// MaxRatio is the most bytes an entry, the run file or a medium, may expand to per byte it
// takes in the archive. Observatory stores media uncompressed (ratio 1), since JPEG and WebM
// are compressed already, and deflates the run file; a bundle re-zipped with deflate stays
// far below the limit for real entries (measured: a blank 1000x700 JPEG deflates 22 to 1, a
// WebM of a page that does not move for two minutes 113 to 1, a moving one 1.04 to 1, run
// files of the booking lab 10 to 22 to 1), while a zip bomb's deflate runs near deflate's
// ceiling of about 1030 to 1. So a 766 KB archive can no longer fill 751 MB of disk, nor an
// 8 KB one the 8 MiB a run file may take in memory: an entry stops, refused, at 200 times
// what it has read.
const MaxRatio = 200

// ratioWriter writes an entry's data to w, failing with an *Error once more than MaxRatio
// times the bytes read from the archive since it was made have been written. It counts what
// is actually read and written, never what the entry's header says.
type ratioWriter struct {
	w       io.Writer
	entry   string
	meter   *budgetReader
	start   int64
	written int64
}

func newRatioWriter(w io.Writer, entry string, meter *budgetReader) *ratioWriter {
	return &ratioWriter{w: w, entry: entry, meter: meter, start: meter.read}
}

// Write writes p, or refuses the entry if p would take it past MaxRatio.
func (r *ratioWriter) Write(p []byte) (int, error) {
	r.written += int64(len(p))
	if read := r.meter.read - r.start; r.written > MaxRatio*read {
		return 0, refuse(r.entry, "expands more than %d times (%d bytes from %d read so far): a zip bomb, or media that was never compressed video or JPEG", MaxRatio, r.written, read)
	}
	return r.w.Write(p)
}
