package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"observatory/backend/agent"
)

// Fingerprint condenses the parts of a page that justify an action: the URL, whether a dialog
// is open, the form's values and the target's identity. It deliberately leaves out what may
// change harmlessly (timestamps, unrelated text), so that a mismatch means the page no longer
// is the one the decision was made on.
func Fingerprint(s agent.Sample, t agent.Target) string {
	fields := make([]string, 0, len(s.Fields))
	for _, f := range s.Fields {
		fields = append(fields, f.Role+"["+f.Name+"]="+f.Value)
	}
	sort.Strings(fields)
	parts := []string{s.URL, boolText(s.DialogOpen), strings.Join(fields, "\x1f"), t.String()}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x1e")))
	return hex.EncodeToString(sum[:8])
}

func boolText(b bool) string {
	if b {
		return "open"
	}
	return "closed"
}
