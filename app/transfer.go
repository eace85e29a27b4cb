package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"observatory/backend/agent"
	"observatory/backend/bundle"
	"observatory/backend/runfile"
	"observatory/backend/scratch"
	"observatory/backend/signing"
	"observatory/backend/store"
)

// ImportResult says what an import stored and where the file's recorded verdicts were wrong.
type ImportResult struct {
	RunID         string                 `json:"run_id"`
	Disagreements []runfile.Disagreement `json:"disagreements"`
	// Signature is what checking the file's signature found, before anything else.
	Signature *agent.Signature `json:"signature"`
}

// Transfer moves runs between the store and files on disk: run files (JSON) and bundles (a
// zip of the run file with its videos and screenshots). The command line and the transports
// use it; it is never bound to the UI, because its methods take paths and streams.
type Transfer struct {
	store     *store.Store
	mediaRoot string
	tempRoot  string
	// keys sign exports and hold the trust list imports are checked against; settings say
	// whether every export is signed.
	keys     *SigningKeys
	settings *Settings
}

// NewTransfer works on the store, the media, the signing keys and the settings below dataDir.
func NewTransfer(st *store.Store, dataDir string) *Transfer {
	return &Transfer{store: st, mediaRoot: MediaRoot(dataDir), tempRoot: TempRoot(dataDir),
		keys: SigningKeysIn(dataDir), settings: SettingsIn(dataDir)}
}

// ExportFile writes a stored run to path: a bundle with its media when path ends in .zip,
// otherwise a run file. It writes through a temporary file, so a failure leaves nothing
// half-written, and returns the media a bundle left out because the disk no longer has them.
// It signs the export when the settings say to sign every export (see ExportSignedFile).
func (t *Transfer) ExportFile(id, path string) (missing []string, err error) {
	missing, _, err = t.ExportSignedFile(id, path, "", false)
	return missing, err
}

// ExportSignedFile is ExportFile, signed with the own key called key when sign is set (""
// names the one the settings sign exports with, else the only key there is), and otherwise
// when the settings say to sign every export. A bundle carries its signature; a run file's
// is written beside it (path + SignatureSuffix). signedBy names the key it was signed with,
// "" when it was not.
func (t *Transfer) ExportSignedFile(id, path, key string, sign bool) (missing []string, signedBy string, err error) {
	signer, err := signerFor(t.keys, t.settings, key, sign)
	if err != nil {
		return nil, "", err
	}
	if signer != nil {
		signedBy = signer.Name
	}
	run, err := t.store.Get(id)
	if err != nil {
		return nil, "", err
	}
	if !strings.HasSuffix(path, ".zip") {
		return nil, signedBy, WriteSignedRunFile(path, runfile.New(run, time.Now()), signer, nil)
	}
	seal := sealerOf(signer)
	err = writeAtomically(path, func(w io.Writer) error {
		missing, err = bundle.ExportSealed(w, run, filepath.Join(t.mediaRoot, run.ID), seal)
		return err
	})
	return missing, signedBy, err
}

// MediaPath is where a media file that run id names lies on disk; a name the run does not
// name is refused, so no caller can reach another file.
func (t *Transfer) MediaPath(id, name string) (string, error) {
	run, err := t.store.Get(id)
	if err != nil {
		return "", err
	}
	names, err := runfile.MediaNames(run.Attempts)
	if err != nil {
		return "", err
	}
	if !slices.Contains(names, name) {
		return "", fmt.Errorf("run %s has no media file %q", run.ID, name)
	}
	return filepath.Join(t.mediaRoot, run.ID, name), nil
}

// WriteBundle writes the bundle of a stored run to w, signed when the settings say to sign
// every export. Media files the run names but the disk no longer has are left out.
func (t *Transfer) WriteBundle(w io.Writer, id string) error {
	signer, err := signerFor(t.keys, t.settings, "", false)
	if err != nil {
		return err
	}
	run, err := t.store.Get(id)
	if err != nil {
		return err
	}
	_, err = bundle.ExportSealed(w, run, filepath.Join(t.mediaRoot, run.ID), sealerOf(signer))
	return err
}

// BundleFile writes the bundle of a stored run to a temporary file in the data folder,
// held so that SweepDebris removes it if this process dies first, and returns it open and
// rewound, with the function that closes and removes it.
func (t *Transfer) BundleFile(id string) (*os.File, func(), error) {
	held, f, err := scratch.File(t.tempRoot, bundlePrefix)
	if err != nil {
		return nil, nil, fmt.Errorf("writing the bundle of %s: %w", id, err)
	}
	remove := func() {
		f.Close()
		held.Remove()
	}
	if err := t.WriteBundle(f, id); err != nil {
		remove()
		return nil, nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		remove()
		return nil, nil, err
	}
	return f, remove, nil
}

// ImportFile imports the run file or bundle at path, telling them apart by content, and
// reading no more than their size limits allow. path may be a pipe (/dev/stdin, a FIFO):
// it is then received as an upload is. A bundle's import stops when ctx ends, keeping
// nothing of it.
func (t *Transfer) ImportFile(ctx context.Context, path string) (ImportResult, error) {
	return t.importFile(ctx, path, filepath.Base(path), false)
}

// ImportRequiringSignature is ImportFile, refusing, before anything else, a file that is not
// signed by a trusted key with every signed byte as signed.
func (t *Transfer) ImportRequiringSignature(ctx context.Context, path string) (ImportResult, error) {
	return t.importFile(ctx, path, filepath.Base(path), true)
}

// importFile checks the file's signature first: with requireSigned, one that is not Verified
// refuses the import; otherwise the imported run keeps what the check found.
func (t *Transfer) importFile(ctx context.Context, path, name string, requireSigned bool) (ImportResult, error) {
	file, err := os.Open(path)
	if err != nil {
		return ImportResult{}, err // it names the path
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return ImportResult{}, err
	}
	if !info.Mode().IsRegular() {
		// A bundle is read at offsets, which a pipe cannot do: spool it to a file first.
		return t.importUpload(ctx, name, file, requireSigned)
	}
	presented, sig, err := t.checkSignature(ctx, file, path, requireSigned)
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s: %w", name, err)
	}
	saver := signedSaver{next: t.store, signature: sig}
	var res runfile.Result
	if presented.Bundle {
		// Read at offsets of the same open file, never of another file put at path since.
		res, err = bundle.Import(ctx, Resolve, saver, t.mediaRoot, name, file, info.Size())
	} else {
		res, err = runfile.Import(Resolve, saver, name, bytes.NewReader(presented.RunFile))
	}
	if err != nil && ctx.Err() != nil {
		return ImportResult{}, fmt.Errorf("%s: the import was stopped; nothing of it was kept (%w)", name, err)
	}
	if err != nil && sig != nil && sig.Status == string(signing.Mismatch) {
		// What the signature check found comes first: it is why the file is not what was sent.
		return ImportResult{}, fmt.Errorf("%s: %s (%s); %w", name, sig.Label, sig.Reason, err)
	}
	if err != nil {
		return ImportResult{}, fmt.Errorf("%s: %w", name, err)
	}
	return ImportResult{RunID: res.Run.ID, Disagreements: res.Disagreements, Signature: sig}, nil
}

// ImportUpload imports a run file or bundle whose bytes arrive on r (the HTTP transport's
// upload), spooling them to a temporary file of at most bundle.MaxBundleBytes in the data
// folder, held so that SweepDebris removes it if this process dies first.
func (t *Transfer) ImportUpload(ctx context.Context, name string, r io.Reader) (ImportResult, error) {
	return t.importUpload(ctx, name, r, false)
}

func (t *Transfer) importUpload(ctx context.Context, name string, r io.Reader, requireSigned bool) (ImportResult, error) {
	held, tmp, err := scratch.File(t.tempRoot, uploadPrefix)
	if err != nil {
		return ImportResult{}, fmt.Errorf("receiving %s: %w", name, err)
	}
	defer held.Remove()
	n, err := io.Copy(tmp, io.LimitReader(r, bundle.MaxBundleBytes+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ImportResult{}, fmt.Errorf("receiving %s: %w", name, err)
	}
	if n > bundle.MaxBundleBytes {
		return ImportResult{}, fmt.Errorf("%s is larger than %d MiB, the most a bundle may be", name, bundle.MaxBundleBytes>>20)
	}
	return t.importFile(ctx, held.Path, name, requireSigned)
}

// partInfix follows the target's name in the name of the temporary file writeAtomically
// writes beside it: ".run.json.part-<random>", with its lock file (see scratch).
const partInfix = ".part-"

// writeAtomically writes through a temporary file beside path renamed into place, so a
// failed export leaves no half-written file. The temporary file is held (see scratch): one
// that a killed process left beside path, which nobody holds, is removed by the next write
// to path, and one another live process is writing is left alone.
func writeAtomically(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("writing %s: %s is not a folder one can write into", path, dir)
	}
	prefix := "." + filepath.Base(path) + partInfix
	// A sweep that fails leaves stale files, never a live one: the write goes on regardless.
	_, _ = scratch.Sweep(dir, prefix)
	held, tmp, err := scratch.File(dir, prefix)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// After the rename only the lock is left to remove.
	defer held.Remove()
	if err := tmp.Chmod(0o644); err != nil { // a file to share, not a private temp file
		tmp.Close()
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(held.Path, path)
}
