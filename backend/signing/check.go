package signing

import (
	"crypto/ed25519"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"observatory/backend/jsonstrict"
)

// Status is what checking a run's signature found.
type Status string

// The four answers Check gives.
const (
	// Verified: signed by a key on the trust list, and every signed byte is as signed.
	Verified Status = "verified"
	// Untrusted: every signed byte is as signed, by a key that is not on the trust list.
	Untrusted Status = "untrusted"
	// Unsigned: there is no signature.
	Unsigned Status = "unsigned"
	// Mismatch: there is a signature, and it does not match what was presented.
	Mismatch Status = "mismatch"
)

// Result is one run's signature, checked.
type Result struct {
	Status Status `json:"status"`
	// Signer is the trust list's name for the key (Verified), or the name the key gives
	// itself (Untrusted; anyone can give any name).
	Signer string `json:"signer,omitempty"`
	// Fingerprint names the key (see Fingerprint); KeyID is all of it.
	Fingerprint string `json:"fingerprint,omitempty"`
	KeyID       string `json:"key_id,omitempty"`
	// Reason says what does not match (Mismatch).
	Reason string `json:"reason,omitempty"`
	// Subjects are the files the statement signs, in its order.
	Subjects []Subject `json:"subjects,omitempty"`
	// Predicate is the signed summary, when the signature matched.
	Predicate *Predicate `json:"predicate,omitempty"`
}

// Label is the result in words, as a person reads it beside a run.
func (r Result) Label() string {
	switch r.Status {
	case Verified:
		return fmt.Sprintf("signed by %s (%s), verified", r.Signer, r.Fingerprint)
	case Untrusted:
		return fmt.Sprintf("signed by a key you do not trust (%s, calling itself %q)", r.Fingerprint, r.Signer)
	case Mismatch:
		return "signature does not match: " + r.Reason
	}
	return "unsigned"
}

// Trust is the keys whose signatures are believed: a signature by any other key is checked
// all the same, and called Untrusted.
type Trust []PublicKey

// find is the trusted key with key id id.
func (t Trust) find(id string) (PublicKey, bool) {
	for _, k := range t {
		if KeyID(k.Key) == id {
			return k, true
		}
	}
	return PublicKey{}, false
}

// Check checks envelope (nil: the run is unsigned) against the files presented (each
// named and digested as Sign's subjects are) and the summary of the run file presented
// (summarize reads it). In order: the envelope decodes and has the in-toto payload type; the
// statement is an in-toto Statement v1 of Observatory's predicate; a signature by the key the
// statement names, with that key's id, verifies over the PAE; every file presented is a
// subject with that digest and every subject is presented; the predicate summarises the
// presented run file. Only then is the key looked up in trust. Any failure is Mismatch,
// its Reason saying which.
func Check(envelope []byte, present []Subject, summarize func() (Summary, error), trust Trust) Result {
	if envelope == nil {
		return Result{Status: Unsigned}
	}
	mismatch := func(format string, args ...any) Result {
		return Result{Status: Mismatch, Reason: fmt.Sprintf(format, args...)}
	}
	env, body, err := decodeEnvelope(envelope)
	if err != nil {
		return mismatch("%v", err)
	}
	if env.PayloadType != PayloadType {
		return mismatch("the payload type is %q, not %s", env.PayloadType, PayloadType)
	}
	var st Statement
	if err := jsonstrict.Unmarshal(body, &st); err != nil {
		return mismatch("the signed statement does not read: %v", err)
	}
	switch {
	case st.Type != StatementType:
		return mismatch("the statement's type is %q, not %s", st.Type, StatementType)
	case st.PredicateType != PredicateType:
		return mismatch("the predicate type is %q, not %s", st.PredicateType, PredicateType)
	case len(st.Predicate.Signer.PublicKey) != ed25519.PublicKeySize:
		return mismatch("the statement names no Ed25519 signing key")
	}
	pub := st.Predicate.Signer.PublicKey
	id := KeyID(pub)
	res := Result{Signer: st.Predicate.Signer.Name, Fingerprint: Fingerprint(pub), KeyID: id, Subjects: st.Subject}
	if !signedBy(env, body, pub, id) {
		res.Status, res.Reason = Mismatch, fmt.Sprintf("no signature in it verifies with the key %s it names", res.Fingerprint)
		return res
	}
	if reason := compareSubjects(st.Subject, present); reason != "" {
		res.Status, res.Reason = Mismatch, reason
		return res
	}
	got, err := summarize()
	if err != nil {
		res.Status, res.Reason = Mismatch, fmt.Sprintf("the signed run file does not read: %v", err)
		return res
	}
	if !reflect.DeepEqual(got, st.Predicate.Summary) {
		res.Status, res.Reason = Mismatch, "the signed predicate does not summarise this run file (its task, attempts or verdicts differ)"
		return res
	}
	res.Predicate = &st.Predicate
	res.Status = Untrusted
	if k, ok := trust.find(id); ok {
		res.Status, res.Signer = Verified, k.Name
	}
	return res
}

// signedBy reports whether a signature of env with key id id (or with none) verifies with
// pub over the PAE of body.
func signedBy(env Envelope, body []byte, pub ed25519.PublicKey, id string) bool {
	pae := PAE(env.PayloadType, body)
	for _, s := range env.Signatures {
		if s.KeyID != "" && s.KeyID != id {
			continue
		}
		sig, err := decode64(s.Sig)
		if err == nil && len(sig) == ed25519.SignatureSize && ed25519.Verify(pub, pae, sig) {
			return true
		}
	}
	return false
}

// compareSubjects says what differs between the signed subjects and the files presented;
// "" when they are the same files with the same digests.
func compareSubjects(signed, present []Subject) string {
	have := map[string]string{}
	for _, p := range present {
		have[p.Name] = p.SHA256()
	}
	var changed, missing []string
	seen := map[string]bool{}
	for _, s := range signed {
		seen[s.Name] = true
		d, ok := have[s.Name]
		switch {
		case !ok:
			missing = append(missing, s.Name)
		case s.SHA256() == "" || d != s.SHA256():
			changed = append(changed, s.Name)
		}
	}
	var extra []string
	for _, p := range present {
		if !seen[p.Name] {
			extra = append(extra, p.Name)
		}
	}
	var parts []string
	if len(changed) > 0 {
		parts = append(parts, strings.Join(changed, ", ")+" changed since it was signed")
	}
	if len(missing) > 0 {
		parts = append(parts, strings.Join(missing, ", ")+" signed but missing")
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		parts = append(parts, strings.Join(extra, ", ")+" not signed")
	}
	return strings.Join(parts, "; ")
}
