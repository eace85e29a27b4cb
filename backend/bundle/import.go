package bundle

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/runfile"
	"observatory/backend/signing"
)

// Limits on what Import reads.
const (
	// MaxBundleBytes is the largest archive Import opens: 512 MiB.
	MaxBundleBytes = 512 << 20
	// MaxEntries is the most entries an archive may hold.
	MaxEntries = 2000
	// MaxEntryBytes is the largest uncompressed entry: 256 MiB.
	MaxEntryBytes = 256 << 20
	// MaxTotalBytes is the most all entries may hold uncompressed together: 1 GiB.
	MaxTotalBytes = 1 << 30
)

// contents are a checked archive's entries: the run file's bytes and the media entries in
// archive order.
type contents struct {
	runFile []byte
	media   []*zip.File
	meter   *budgetReader
	// signature is the signature's entry, nil in an unsigned bundle.
	signature *zip.File
}

// Import reads the bundle in r (size bytes; name is its file name, recorded as the imported
// run's source) and, only if all of it is acceptable, stores its run through s and its media
// under <mediaRoot>/<new run id>/.
//
// Before writing anything it refuses, with an *Error naming the entry: an archive over the
// limits (MaxBundleBytes, MaxEntries, MaxEntryBytes, MaxTotalBytes, a DOM snapshot past
// agent.MaxDOMBytes); an entry name that is
// absolute, has a drive letter, a backslash or a ".." segment; a symbolic link or other
// special file; a folder other than media/; a duplicate name (ignoring case); anything but
// run.json and media/<plain file name>; a missing run.json. The run file then goes through
// runfile.Import, whose *runfile.Error refusals pass through as they are. Once the run is
// accepted, every media entry must be named by it; only then are the media extracted, each
// read once and never past what its header declares, into a temporary folder renamed into
// place, and the run saved. An entry whose data does not match its header, one that expands
// more than MaxRatio times what it takes in the archive, or a failure in s, removes whatever
// was extracted. So does ctx ending before the run is saved: Import then returns ctx's error.
func Import(ctx context.Context, resolve runfile.Resolver, s runfile.Saver, mediaRoot, name string, r io.ReaderAt, size int64) (runfile.Result, error) {
	c, err := scan(ctx, r, size)
	if err != nil {
		return runfile.Result{}, err
	}
	return runfile.Import(resolve, mediaSaver{next: s, media: c.media, root: mediaRoot, meter: c.meter}, name, bytes.NewReader(c.runFile))
}

// scan opens the archive, checks every entry's header against the limits and the naming
// rules, and reads the run file. It writes nothing; the media's data is checked as it is
// extracted.
func scan(ctx context.Context, r io.ReaderAt, size int64) (contents, error) {
	zr, meter, err := openArchive(ctx, r, size)
	if err != nil {
		return contents{}, err
	}
	var run, signature *zip.File
	var media []*zip.File
	var total uint64
	seen := map[string]bool{}
	for _, f := range zr.File {
		if err := checkEntry(f, seen); err != nil {
			return contents{}, err
		}
		if total += f.UncompressedSize64; total > MaxTotalBytes {
			return contents{}, refuse(f.Name, "the entries hold more than %d MiB uncompressed together", MaxTotalBytes>>20)
		}
		switch {
		case f.Name == RunFile:
			run = f
		case f.Name == SignatureFile:
			signature = f
		case f.Name != MediaPrefix:
			media = append(media, f)
		}
	}
	if run == nil {
		return contents{}, refuse("", "no %s entry: a bundle holds the run file as %s", RunFile, RunFile)
	}
	data, err := readRunFile(run, meter)
	if err != nil {
		return contents{}, err
	}
	return contents{runFile: data, media: media, meter: meter, signature: signature}, nil
}

// checkEntry refuses an entry whose header breaks a naming rule or the size limit. seen
// holds the names so far, lower-cased, so that no two entries land on the same file of a
// case-insensitive file system.
func checkEntry(f *zip.File, seen map[string]bool) *Error {
	name := f.Name
	if err := checkPath(name); err != nil {
		return err
	}
	mode := f.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		return refuse(name, "a symbolic link; a bundle holds regular files only")
	case mode.IsDir() && name != MediaPrefix:
		return refuse(name, "a folder; the only folder a bundle may hold is %s", MediaPrefix)
	case !mode.IsDir() && !mode.IsRegular():
		return refuse(name, "a special file (%v); a bundle holds regular files only", mode.Type())
	}
	key := strings.ToLower(name)
	if seen[key] {
		return refuse(name, "a duplicate: another entry has this name (ignoring case)")
	}
	seen[key] = true
	switch {
	case name == RunFile, name == MediaPrefix && mode.IsDir():
	case name == SignatureFile:
		if f.UncompressedSize64 > signing.MaxEnvelopeBytes {
			return refuse(name, "%d bytes uncompressed: a signature is at most %d KiB", f.UncompressedSize64, signing.MaxEnvelopeBytes>>10)
		}
	case strings.HasPrefix(name, MediaPrefix) && runfile.PlainMediaName(name[len(MediaPrefix):]):
	default:
		return refuse(name, "unexpected entry: a bundle holds %s, %s<name> and a signature only, name made of letters, digits, '.', '_' and '-', not starting with '.'", RunFile, MediaPrefix)
	}
	if f.UncompressedSize64 > MaxEntryBytes {
		return refuse(name, "%d bytes uncompressed, over the %d MiB limit per entry", f.UncompressedSize64, MaxEntryBytes>>20)
	}
	if strings.HasSuffix(name, agent.DOMExt) && f.UncompressedSize64 > agent.MaxDOMBytes {
		return refuse(name, "%d bytes uncompressed: a DOM snapshot is at most %d MiB", f.UncompressedSize64, agent.MaxDOMBytes>>20)
	}
	return nil
}

// readRunFile reads the run file's entry, refusing one over runfile.MaxBytes or one that
// expands past MaxRatio (meter counts what it reads from the archive).
func readRunFile(f *zip.File, meter *budgetReader) ([]byte, error) {
	if f.UncompressedSize64 > runfile.MaxBytes {
		return nil, refuse(f.Name, "%d bytes, over the %d MiB limit of a run file", f.UncompressedSize64, runfile.MaxBytes>>20)
	}
	var buf bytes.Buffer
	if err := copyEntry(newRatioWriter(&buf, f.Name, meter), f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// copyEntry copies f to w, refusing an entry whose data does not match its header. It never
// reads more than the header declares plus one byte, whatever the archive holds (archive/zip
// itself checks the length and the checksum as it reads).
func copyEntry(w io.Writer, f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return refuse(f.Name, "cannot open it: %v", err)
	}
	defer rc.Close()
	declared := int64(f.UncompressedSize64)
	n, err := io.Copy(w, io.LimitReader(rc, declared+1))
	var refused *Error
	switch {
	case errors.As(err, &refused):
		return refused
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err // stopped, not damaged
	case err != nil:
		return refuse(f.Name, "its data does not match its header (%v): the bundle is damaged or forged", err)
	case n > declared:
		return refuse(f.Name, "holds more than the %d bytes its header declares: the bundle is forged", declared)
	}
	return nil
}
