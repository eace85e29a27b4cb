package signing

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"observatory/backend/jsonstrict"
)

// MaxEnvelopeBytes bounds a signature file: a statement lists a run file and at most a
// bundle's entries, each a name and a digest.
const MaxEnvelopeBytes = 1 << 20

// Envelope is DSSE's JSON envelope (secure-systems-lab/dsse, envelope.md).
type Envelope struct {
	// Payload is the serialized body, base64 (standard or URL-safe).
	Payload     string              `json:"payload"`
	PayloadType string              `json:"payloadType"`
	Signatures  []EnvelopeSignature `json:"signatures"`
}

// EnvelopeSignature is one signature over the PAE of the payload, and the id of the key
// that made it (a hint only).
type EnvelopeSignature struct {
	KeyID string `json:"keyid,omitempty"`
	Sig   string `json:"sig"`
}

// Sign makes the envelope of an in-toto statement that subjects are signed by signer, its
// predicate summary and shards as given, and returns it as indented JSON.
func Sign(signer Signer, subjects []Subject, summary Summary, shards []Shard, version string) ([]byte, error) {
	pub := signer.Public()
	st := Statement{Type: StatementType, Subject: subjects, PredicateType: PredicateType,
		Predicate: Predicate{Summary: summary, Observatory: version, Signer: SignerInfo{Name: signer.Name, PublicKey: pub.Key}, Shards: shards}}
	body, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	sig := ed25519.Sign(signer.Key, PAE(PayloadType, body))
	env := Envelope{Payload: base64.StdEncoding.EncodeToString(body), PayloadType: PayloadType,
		Signatures: []EnvelopeSignature{{KeyID: KeyID(pub.Key), Sig: base64.StdEncoding.EncodeToString(sig)}}}
	out, err := json.MarshalIndent(env, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// decodeEnvelope reads a DSSE JSON envelope strictly (one document, no repeated members);
// members it does not know are ignored, as the envelope's specification asks.
func decodeEnvelope(data []byte) (Envelope, []byte, error) {
	var env Envelope
	if len(data) > MaxEnvelopeBytes {
		return env, nil, fmt.Errorf("the signature is %d bytes, over %d KiB", len(data), MaxEnvelopeBytes>>10)
	}
	if err := jsonstrict.Unmarshal(data, &env); err != nil {
		return env, nil, fmt.Errorf("not a DSSE envelope: %v", err)
	}
	body, err := decode64(env.Payload)
	if err != nil {
		return env, nil, fmt.Errorf("the envelope's payload is not base64: %v", err)
	}
	return env, body, nil
}

// decode64 reads standard or URL-safe base64, padded or not.
func decode64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("%d characters that no base64 alphabet reads", len(s))
}
