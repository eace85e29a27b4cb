package bundle

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"observatory/backend/agent"
	"observatory/backend/runfile"
)

// Export writes run as a bundle to w: run.json first (deflated), then media/<name> for every
// video and screenshot the run names that exists in mediaDir (the run's media folder,
// <mediaRoot>/<runID>), each once and stored uncompressed, since JPEG and WebM are already
// compressed. A named file missing from mediaDir is left out and returned in missing (in run
// order) so that the caller can warn; it does not fail the export. Export refuses, writing
// nothing to w, a run that runfile.Encode refuses or that names media by anything but a
// plain file name.
func Export(w io.Writer, run agent.Run, mediaDir string) (missing []string, err error) {
	refs, err := runfile.MediaNames(run.Attempts)
	if err != nil {
		return nil, fmt.Errorf("cannot bundle run %q: %w", run.ID, err)
	}
	// Encoded first, so that a run runfile refuses writes nothing to w.
	var runFile bytes.Buffer
	if err := runfile.Encode(&runFile, run); err != nil {
		return nil, err
	}
	zw := zip.NewWriter(w)
	fw, err := zw.CreateHeader(&zip.FileHeader{Name: RunFile, Method: zip.Deflate})
	if err == nil {
		_, err = runFile.WriteTo(fw)
	}
	if err != nil {
		return nil, fmt.Errorf("writing the bundle of run %q: %w", run.ID, err)
	}
	for _, name := range refs {
		found, err := addMedia(zw, filepath.Join(mediaDir, name), MediaPrefix+name)
		if err != nil {
			return nil, fmt.Errorf("writing the bundle of run %q: %w", run.ID, err)
		}
		if !found {
			missing = append(missing, name)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("writing the bundle of run %q: %w", run.ID, err)
	}
	return missing, nil
}

// addMedia copies the file at path into zw as entry, stored; found is false when there is
// no such file.
func addMedia(zw *zip.Writer, path, entry string) (found bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return false, err
	}
	if !info.Mode().IsRegular() {
		return false, fmt.Errorf("media %s is not a regular file", path)
	}
	h, err := zip.FileInfoHeader(info)
	if err != nil {
		return false, err
	}
	h.Name, h.Method = entry, zip.Store
	zf, err := zw.CreateHeader(h)
	if err != nil {
		return false, err
	}
	if _, err := io.Copy(zf, f); err != nil {
		return false, fmt.Errorf("copying media %s: %w", path, err)
	}
	return true, nil
}
