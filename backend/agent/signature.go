package agent

// Signature is what checking an imported run's signature found when it was imported: its
// status (verified, untrusted, unsigned or mismatch), who signed it, and which files the
// signature covers. It is a record of that check against the trust list of that moment.
type Signature struct {
	Status string `json:"status"`
	// Label is the status in words, as shown beside the run.
	Label string `json:"label"`
	// Signer is the trust list's name for the key, or the name the key gives itself when it
	// is not trusted; Fingerprint names the key.
	Signer      string `json:"signer,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
	// Reason says what does not match, for a signature that does not.
	Reason string `json:"reason,omitempty"`
	// Signed are the files the signature covers: the run file and each media file.
	Signed []SignedFile `json:"signed,omitempty"`
}

// SignedFile is one file a signature covers: its name in the run ("run.json",
// "media/<name>") and its SHA-256, hex.
type SignedFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}
