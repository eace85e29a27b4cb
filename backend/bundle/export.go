package bundle

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"observatory/backend/agent"
	"observatory/backend/runfile"
	"observatory/backend/signing"
)

// Export writes run as a bundle to w: run.json first (deflated), then media/<name> for every
// video and screenshot the run names that exists in mediaDir (the run's media folder,
// <mediaRoot>/<runID>), each once and stored uncompressed, since JPEG and WebM are already
// compressed. A named file missing from mediaDir is left out and returned in missing (in run
// order) so that the caller can warn; it does not fail the export. Export refuses, writing
// nothing to w, a run that runfile.Encode refuses or that names media by anything but a
// plain file name.
func Export(w io.Writer, run agent.Run, mediaDir string) (missing []string, err error) {
	return ExportSealed(w, run, mediaDir, nil)
}

// A Sealer signs a bundle: given its run file's bytes and every entry as a subject (run.json
// and each media/<name>, with its SHA-256), it returns the signature written as
// SignatureFile.
type Sealer func(runFile []byte, subjects []signing.Subject) ([]byte, error)

// ExportSealed is Export, with the bundle signed by seal (nil: unsigned): its signature is
// the last entry, over the entries written before it.
func ExportSealed(w io.Writer, run agent.Run, mediaDir string, seal Sealer) (missing []string, err error) {
	refs, err := runfile.MediaNames(run.Attempts)
	if err != nil {
		return nil, fmt.Errorf("cannot bundle run %q: %w", run.ID, err)
	}
	// Encoded first, so that a run runfile refuses writes nothing to w.
	var runFile bytes.Buffer
	if err := runfile.Encode(&runFile, run); err != nil {
		return nil, err
	}
	data := runFile.Bytes()
	subjects := []signing.Subject{signing.SubjectOf(RunFile, data)}
	zw := zip.NewWriter(w)
	fw, err := zw.CreateHeader(&zip.FileHeader{Name: RunFile, Method: zip.Deflate})
	if err == nil {
		_, err = fw.Write(data)
	}
	if err != nil {
		return nil, fmt.Errorf("writing the bundle of run %q: %w", run.ID, err)
	}
	for _, name := range refs {
		found, sum, err := addMedia(zw, filepath.Join(mediaDir, name), MediaPrefix+name)
		if err != nil {
			return nil, fmt.Errorf("writing the bundle of run %q: %w", run.ID, err)
		}
		if !found {
			missing = append(missing, name)
			continue
		}
		subjects = append(subjects, signing.Subject{Name: MediaPrefix + name, Digest: map[string]string{"sha256": sum}})
	}
	if seal != nil {
		if err := addSignature(zw, seal, data, subjects); err != nil {
			return nil, fmt.Errorf("signing the bundle of run %q: %w", run.ID, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("writing the bundle of run %q: %w", run.ID, err)
	}
	return missing, nil
}

// addSignature writes seal's signature of the entries as SignatureFile.
func addSignature(zw *zip.Writer, seal Sealer, runFile []byte, subjects []signing.Subject) error {
	sig, err := seal(runFile, subjects)
	if err != nil {
		return err
	}
	fw, err := zw.CreateHeader(&zip.FileHeader{Name: SignatureFile, Method: zip.Deflate})
	if err == nil {
		_, err = fw.Write(sig)
	}
	return err
}

// addMedia copies the file at path into zw as entry, stored, and returns its SHA-256 (hex);
// found is false when there is no such file.
func addMedia(zw *zip.Writer, path, entry string) (found bool, sha string, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, "", nil
	}
	if err != nil {
		return false, "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return false, "", err
	}
	if !info.Mode().IsRegular() {
		return false, "", fmt.Errorf("media %s is not a regular file", path)
	}
	h, err := zip.FileInfoHeader(info)
	if err != nil {
		return false, "", err
	}
	h.Name, h.Method = entry, zip.Store
	zf, err := zw.CreateHeader(h)
	if err != nil {
		return false, "", err
	}
	sum := sha256.New()
	if _, err := io.Copy(io.MultiWriter(zf, sum), f); err != nil {
		return false, "", fmt.Errorf("copying media %s: %w", path, err)
	}
	return true, hex.EncodeToString(sum.Sum(nil)), nil
}
