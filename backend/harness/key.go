package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strings"

	"observatory/backend/agent"
)

// Key identifies a call by its tool, its arguments and the page it runs on (the address
// without its fragment), so the same action on a different page is a different call. Values
// are hashed with the rest, so a secret never shows in a key.
func Key(a agent.Action, page agent.Sample) string {
	where := page.URL
	if u, err := url.Parse(page.URL); err == nil {
		u.Fragment = ""
		where = u.String()
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{string(a.Kind), a.Target.String(), a.Value, where}, "\x1e")))
	return hex.EncodeToString(sum[:8])
}
