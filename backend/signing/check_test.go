package signing

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fixedSigner is a key made from a fixed seed, so failures repeat.
func fixedSigner(name string, seed byte) Signer {
	return Signer{Name: name, Key: ed25519.NewKeyFromSeed([]byte(strings.Repeat(string(rune(seed)), ed25519.SeedSize)))}
}

var (
	runBytes   = []byte(`{"schema":"observatory.run/v2"}`)
	shotBytes  = []byte("\xff\xd8 a screenshot")
	theSummary = Summary{Run: "r1", Task: "booking", Attempts: []AttemptSummary{{Attempt: "saves-normally", Terminal: "completed",
		Verdicts: map[string]string{"truth": "yes", "gate": "yes"}}}}
)

func presented(run, shot []byte) []Subject {
	return []Subject{SubjectOf(RunSubject, run), SubjectOf(MediaPrefix+"a.jpg", shot)}
}

func summaryOf(s Summary) func() (Summary, error) { return func() (Summary, error) { return s, nil } }

// TestCheckTellsTheFourAnswersApart signs a run file and a screenshot, then checks them:
// verified with the signer trusted, untrusted with another trust list, unsigned without an
// envelope, and does not match for a flipped byte in either file, a file left out or added,
// a wrong payload type, statement type or predicate, a predicate that does not summarise
// the file, and a signature whose key id matches but whose bytes do not.
func TestCheckTellsTheFourAnswersApart(t *testing.T) {
	alice, bob := fixedSigner("alice", 1), fixedSigner("bob", 2)
	env, err := Sign(alice, presented(runBytes, shotBytes), theSummary, nil, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	mine, theirs := Trust{{Name: "Alice at work", Key: alice.Public().Key}}, Trust{bob.Public()}
	got := Check(env, presented(runBytes, shotBytes), summaryOf(theSummary), mine)
	if got.Status != Verified || got.Signer != "Alice at work" || got.Fingerprint != Fingerprint(alice.Public().Key) || len(got.Subjects) != 2 {
		t.Fatalf("trusted: %+v", got)
	}
	if want := "signed by Alice at work (" + got.Fingerprint + "), verified"; got.Label() != want {
		t.Errorf("label %q, want %q", got.Label(), want)
	}
	if got := Check(env, presented(runBytes, shotBytes), summaryOf(theSummary), theirs); got.Status != Untrusted || got.Signer != "alice" ||
		!strings.Contains(got.Label(), "a key you do not trust ("+Fingerprint(alice.Public().Key)) {
		t.Errorf("another trust list: %+v %q", got, got.Label())
	}
	if got := Check(nil, presented(runBytes, shotBytes), summaryOf(theSummary), mine); got.Status != Unsigned || got.Label() != "unsigned" {
		t.Errorf("no envelope: %+v", got)
	}
	flip := func(b []byte, i int) []byte { c := append([]byte(nil), b...); c[i] ^= 1; return c }
	var envelope Envelope
	if err := json.Unmarshal(env, &envelope); err != nil {
		t.Fatal(err)
	}
	body, _ := base64.StdEncoding.DecodeString(envelope.Payload)
	rewrap := func(edit func(e *Envelope, st map[string]any)) []byte {
		e := envelope
		e.Signatures = append([]EnvelopeSignature(nil), envelope.Signatures...)
		var st map[string]any
		json.Unmarshal(body, &st)
		edit(&e, st)
		b, _ := json.Marshal(st)
		if e.Payload == envelope.Payload {
			e.Payload = base64.StdEncoding.EncodeToString(b)
		}
		out, _ := json.Marshal(e)
		return out
	}
	resign := func(edit func(st map[string]any)) []byte { // a statement edited and signed again by alice
		return rewrap(func(e *Envelope, st map[string]any) {
			edit(st)
			b, _ := json.Marshal(st)
			e.Payload = base64.StdEncoding.EncodeToString(b)
			e.Signatures = []EnvelopeSignature{{KeyID: KeyID(alice.Public().Key), Sig: base64.StdEncoding.EncodeToString(ed25519.Sign(alice.Key, PAE(e.PayloadType, b)))}}
		})
	}
	otherSummary := theSummary
	otherSummary.Attempts = []AttemptSummary{{Attempt: "saves-normally", Terminal: "completed", Verdicts: map[string]string{"truth": "no", "gate": "yes"}}}
	forgedSig := ed25519.Sign(bob.Key, PAE(PayloadType, body))
	for _, c := range []struct {
		name     string
		env      []byte
		present  []Subject
		summary  Summary
		inReason string
	}{
		{"a flipped byte of the run file", env, presented(flip(runBytes, 3), shotBytes), theSummary, "run.json changed since it was signed"},
		{"a flipped byte of the screenshot", env, presented(runBytes, flip(shotBytes, 5)), theSummary, "media/a.jpg changed since it was signed"},
		{"a screenshot left out", env, presented(runBytes, shotBytes)[:1], theSummary, "media/a.jpg signed but missing"},
		{"a file added", env, append(presented(runBytes, shotBytes), SubjectOf("media/b.jpg", shotBytes)), theSummary, "media/b.jpg not signed"},
		{"a flipped byte of the payload", rewrap(func(e *Envelope, _ map[string]any) {
			b := flip(body, 40)
			e.Payload = base64.StdEncoding.EncodeToString(b)
		}), presented(runBytes, shotBytes), theSummary, ""},
		{"another payload type", rewrap(func(e *Envelope, _ map[string]any) { e.PayloadType = "application/json" }),
			presented(runBytes, shotBytes), theSummary, "payload type"},
		{"another statement type, signed", resign(func(st map[string]any) { st["_type"] = "https://in-toto.io/Statement/v0.1" }),
			presented(runBytes, shotBytes), theSummary, "statement's type"},
		{"another predicate type, signed", resign(func(st map[string]any) { st["predicateType"] = "https://slsa.dev/provenance/v1" }),
			presented(runBytes, shotBytes), theSummary, "predicate type"},
		{"a predicate that does not summarise the file", env, presented(runBytes, shotBytes), otherSummary, "does not summarise"},
		{"the key id matches, the signature does not", rewrap(func(e *Envelope, _ map[string]any) {
			e.Signatures[0].Sig = base64.StdEncoding.EncodeToString(forgedSig)
		}), presented(runBytes, shotBytes), theSummary, "no signature in it verifies with the key"},
		{"not JSON", []byte("{"), presented(runBytes, shotBytes), theSummary, "not a DSSE envelope"},
	} {
		got := Check(c.env, c.present, summaryOf(c.summary), mine)
		if got.Status != Mismatch || !strings.Contains(got.Reason, c.inReason) || !strings.HasPrefix(got.Label(), "signature does not match") {
			t.Errorf("%s: %+v, want a mismatch saying %q", c.name, got, c.inReason)
		}
	}
	if got := Check(env, presented(runBytes, shotBytes), func() (Summary, error) { return Summary{}, errors.New("bad file") }, mine); got.Status != Mismatch {
		t.Errorf("an unreadable run file: %+v", got)
	}
}

// TestParsePublicReadsWhatEncodePEMWrites: the PEM export, its base64 body and the raw key's
// base64 all read back as the key; a private key or garbage is refused.
func TestParsePublicReadsWhatEncodePEMWrites(t *testing.T) {
	pub := fixedSigner("a", 7).Public().Key
	pemText := EncodePEM(pub)
	body := strings.Join(strings.Split(strings.TrimSpace(string(pemText)), "\n")[1:2], "")
	for _, in := range []string{string(pemText), body, base64.StdEncoding.EncodeToString(pub)} {
		got, err := ParsePublic([]byte(in))
		if err != nil || !got.Equal(pub) {
			t.Errorf("ParsePublic(%q) = %x, %v", in, got, err)
		}
	}
	for _, bad := range []string{"not a key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", base64.StdEncoding.EncodeToString([]byte("short"))} {
		if _, err := ParsePublic([]byte(bad)); err == nil {
			t.Errorf("ParsePublic(%q) accepted it", bad)
		}
	}
}
