package app

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"observatory/app/version"
	"observatory/backend/agent"
	"observatory/backend/bundle"
	"observatory/backend/runfile"
	"observatory/backend/signing"
)

// SignatureSuffix follows a run file's name in the name of its detached signature: a signed
// run file run.json is accompanied by run.json.sig.json. A bundle carries its own
// (bundle.SignatureFile).
const SignatureSuffix = ".sig.json"

// Presented is a run file or bundle as a signature check sees it: the run file's bytes, the
// signature (nil: none) and every file presented, named as a statement's subjects.
type Presented struct {
	RunFile   []byte
	Signature []byte
	Files     []signing.Subject
	// Bundle says the file is a bundle, not a run file.
	Bundle bool
}

// ReadPresented reads the run file at path, with its detached signature beside it when there
// is one, or the bundle at path (told apart by content) with every entry digested. It reads
// no more than the size limits allow; a bundle's entries are checked as import checks them.
func ReadPresented(ctx context.Context, path string) (Presented, error) {
	f, err := os.Open(path)
	if err != nil {
		return Presented{}, err
	}
	defer f.Close()
	return presentedFrom(ctx, f, path)
}

// presentedFrom is ReadPresented of the file f, open at its start, found at path.
func presentedFrom(ctx context.Context, f *os.File, path string) (Presented, error) {
	br := bufio.NewReader(f)
	if bundle.Sniff(br) {
		info, err := f.Stat()
		if err != nil {
			return Presented{}, err
		}
		if !info.Mode().IsRegular() {
			return Presented{}, errors.New("a bundle is read at offsets, so it must be a file, not a pipe; save it first")
		}
		s, err := bundle.SignedOf(ctx, f, info.Size())
		if err != nil {
			return Presented{}, err
		}
		return Presented{RunFile: s.RunFile, Signature: s.Signature, Files: s.Entries, Bundle: true}, nil
	}
	// A file past the limit is read one byte past it, for Decode to refuse in its words.
	data, err := io.ReadAll(io.LimitReader(br, runfile.MaxBytes+1))
	if err != nil {
		return Presented{}, err
	}
	p := Presented{RunFile: data, Files: []signing.Subject{signing.SubjectOf(signing.RunSubject, data)}}
	sig, err := readSmall(path+SignatureSuffix, signing.MaxEnvelopeBytes)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Presented{}, fmt.Errorf("its signature: %w", err)
	}
	p.Signature = sig
	return p, nil
}

// readSmall reads the file at path, refusing one over max bytes.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("%s is larger than %d KiB", path, max>>10)
	}
	return data, err
}

// Check checks the signature against trust (see signing.Check); the predicate is compared
// with the run file's own summary.
func (p Presented) Check(trust signing.Trust) signing.Result {
	return signing.Check(p.Signature, p.Files, func() (signing.Summary, error) { return summaryOf(p.RunFile) }, trust)
}

// Decode decodes the presented run file.
func (p Presented) Decode() (runfile.File, error) { return runfile.Decode(bytes.NewReader(p.RunFile)) }

// summaryOf is the summary of the run file data holds, as signed.
func summaryOf(data []byte) (signing.Summary, error) {
	f, err := runfile.Decode(bytes.NewReader(data))
	if err != nil {
		return signing.Summary{}, err
	}
	return signing.Summarize(f.Run), nil
}

// SignatureRecord is a checked signature as an imported run keeps it.
func SignatureRecord(r signing.Result) *agent.Signature {
	s := &agent.Signature{Status: string(r.Status), Label: r.Label(), Signer: r.Signer, Fingerprint: r.Fingerprint, Reason: r.Reason}
	if r.Status == signing.Untrusted {
		s.Label = fmt.Sprintf("signed by an untrusted key (%s)", r.Fingerprint)
	}
	for _, sub := range r.Subjects {
		s.Signed = append(s.Signed, agent.SignedFile{Name: sub.Name, SHA256: sub.SHA256()})
	}
	return s
}

// TrustHint says how to trust the key of an untrusted signature.
func TrustHint(r signing.Result) string {
	return fmt.Sprintf("if you know the key %s is %s's, get its public key from them (observatory keys export-public) and run `observatory keys trust FILE --name NAME`", r.Fingerprint, r.Signer)
}

// sealWith signs a bundle's entries, or a run file alone, with signer; shards are listed in
// the statement of a merged run.
func sealWith(signer signing.Signer, shards []signing.Shard) bundle.Sealer {
	return func(runFile []byte, subjects []signing.Subject) ([]byte, error) {
		sum, err := summaryOf(runFile)
		if err != nil {
			return nil, err
		}
		return signing.Sign(signer, subjects, sum, shards, version.Get().Version)
	}
}

// sealerOf signs a bundle with signer; nil (unsigned) without one.
func sealerOf(signer *signing.Signer) bundle.Sealer {
	if signer == nil {
		return nil
	}
	return sealWith(*signer, nil)
}

// WriteSignedRunFile writes the run file f at path and, with a signer, its detached
// signature beside it (path + SignatureSuffix), listing shards for a merged run; each
// atomically. A run file written unsigned removes a stale signature beside it, so that the
// file is never presented with another file's signature.
func WriteSignedRunFile(path string, f runfile.File, signer *signing.Signer, shards []signing.Shard) error {
	var buf bytes.Buffer
	if err := runfile.EncodeFile(&buf, f); err != nil {
		return err
	}
	if err := writeAtomically(path, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return err
	}
	if signer == nil {
		if err := os.Remove(path + SignatureSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	sig, err := sealWith(*signer, shards)(buf.Bytes(), []signing.Subject{signing.SubjectOf(signing.RunSubject, buf.Bytes())})
	if err != nil {
		return fmt.Errorf("signing %s: %w", path, err)
	}
	return writeAtomically(path+SignatureSuffix, func(w io.Writer) error { _, err := w.Write(sig); return err })
}

// checkSignature checks the signature of the run file or bundle f (open at its start, found
// at path) against the trust list; with requireSigned, anything but a verified signature is
// refused. It returns what it read, so that a run file is imported from the very bytes
// checked.
func (t *Transfer) checkSignature(ctx context.Context, f *os.File, path string, requireSigned bool) (Presented, *agent.Signature, error) {
	trust, err := t.keys.Trusted()
	if err != nil {
		return Presented{}, nil, err
	}
	p, err := presentedFrom(ctx, f, path)
	if err != nil {
		return Presented{}, nil, err
	}
	res := p.Check(trust)
	if requireSigned && res.Status != signing.Verified {
		switch res.Status {
		case signing.Untrusted:
			return p, nil, fmt.Errorf("refused, a signature by a trusted key is required: %s; %s", res.Label(), TrustHint(res))
		case signing.Unsigned:
			return p, nil, errors.New("refused, a signature by a trusted key is required: the file is unsigned")
		}
		return p, nil, fmt.Errorf("refused, a signature by a trusted key is required: %s", res.Label())
	}
	return p, SignatureRecord(res), nil
}

// signedSaver stores an imported run with what checking its signature found.
type signedSaver struct {
	next      runfile.Saver
	signature *agent.Signature
}

// SaveImported stores run with the signature record.
func (s signedSaver) SaveImported(run agent.Run) error {
	run.Signature = s.signature
	return s.next.SaveImported(run)
}

// SignerIn is the key an export or a merge in the data folder dataDir is signed with: the
// own key called key when sign is set ("" names the one the settings sign exports with,
// else the only key there is), else the settings' key when they say to sign every export;
// nil for none.
func SignerIn(dataDir, key string, sign bool) (*signing.Signer, error) {
	return signerFor(SigningKeysIn(dataDir), SettingsIn(dataDir), key, sign)
}

func signerFor(keys *SigningKeys, settings *Settings, key string, sign bool) (*signing.Signer, error) {
	set, err := settings.Get()
	switch {
	case !sign && (err != nil || set.SignExports == ""):
		return nil, err
	case key == "":
		key = set.SignExports
	}
	s, err := keys.Signer(key)
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	return &s, nil
}
