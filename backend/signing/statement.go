package signing

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"

	"observatory/backend/agent"
)

// The types a signed run names.
const (
	// PayloadType is the DSSE payload type of an in-toto statement.
	PayloadType = "application/vnd.in-toto+json"
	// StatementType is in-toto's Statement v1.
	StatementType = "https://in-toto.io/Statement/v1"
	// PredicateType is Observatory's summary of a signed run.
	PredicateType = "https://observatory.local/attestation/run/v1"
)

// Subject names of a signed run: the run file, and each media file under MediaPrefix.
const (
	RunSubject  = "run.json"
	MediaPrefix = "media/"
)

// Statement is an in-toto Statement v1 about a run file and its media.
type Statement struct {
	Type          string    `json:"_type"`
	Subject       []Subject `json:"subject"`
	PredicateType string    `json:"predicateType"`
	Predicate     Predicate `json:"predicate"`
}

// Subject is one signed file: its name in the run (RunSubject, or MediaPrefix + the media
// name) and its digests (sha256 only).
type Subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// SHA256 is a subject's SHA-256, hex.
func (s Subject) SHA256() string { return s.Digest["sha256"] }

// SubjectOf names data as a subject.
func SubjectOf(name string, data []byte) Subject {
	return Subject{Name: name, Digest: map[string]string{"sha256": Digest(data)}}
}

// Digest is data's SHA-256, hex.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Predicate summarises the signed run: enough to read what was signed without the run file,
// and checked against the run file when it is.
type Predicate struct {
	// Summary is what the run file says; the checker recomputes it from the file.
	Summary
	// Observatory is the version of the Observatory that signed.
	Observatory string `json:"observatory"`
	// Signer names the key that signed and carries it, so that a signature by a key nobody
	// trusts here is still checked against the bytes.
	Signer SignerInfo `json:"signer"`
	// Shards are, for a merged run, the shard files it was merged from (see MergeShard).
	Shards []Shard `json:"shards,omitempty"`
}

// Summary is a run file's summary: its run's id and task, and each attempt's end and calls.
type Summary struct {
	Run      string           `json:"run"`
	Task     string           `json:"task"`
	Attempts []AttemptSummary `json:"attempts"`
}

// AttemptSummary is one attempt's terminal state and its checks' calls: "yes", "no" or
// "unconfirmed", by the check's id ("truth", "gate", each signal's).
type AttemptSummary struct {
	Attempt  string            `json:"attempt"`
	Terminal string            `json:"terminal"`
	Verdicts map[string]string `json:"verdicts"`
}

// SignerInfo is the signing key as the statement names it: the name its holder gave it and
// the key (32 raw bytes, base64 in JSON).
type SignerInfo struct {
	Name      string            `json:"name"`
	PublicKey ed25519.PublicKey `json:"public_key"`
}

// Shard is one shard a merged run was made from: its file name, its run file's SHA-256 and
// who signed it (Status as Check gave it; signer and fingerprint empty when unsigned).
type Shard struct {
	Name        string `json:"name"`
	SHA256      string `json:"sha256"`
	Status      Status `json:"status"`
	Signer      string `json:"signer,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
}

// Summarize is run's summary as a run file holds it: the recorded calls, as they are in the file.
func Summarize(run agent.Run) Summary {
	s := Summary{Run: run.ID, Task: run.Task, Attempts: make([]AttemptSummary, 0, len(run.Attempts))}
	for _, a := range run.Attempts {
		v := map[string]string{"truth": call(a.Verdicts.Truth.Done, a.Verdicts.Truth.Unconfirmed),
			agent.GateID: call(a.Verdicts.Gate.Done, "")}
		for _, sig := range a.Verdicts.Signals {
			v[sig.ID] = call(sig.Done, sig.Unconfirmed)
		}
		s.Attempts = append(s.Attempts, AttemptSummary{Attempt: a.Slug, Terminal: string(a.Terminal), Verdicts: v})
	}
	return s
}

func call(done bool, unconfirmed string) string {
	switch {
	case unconfirmed != "":
		return "unconfirmed"
	case done:
		return "yes"
	}
	return "no"
}
