package outside

import (
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestParseClaim: a claim is JSON with done; anything else is no claim.
func TestParseClaim(t *testing.T) {
	for _, c := range []struct {
		in     string
		ok     bool
		done   bool
		answer string
	}{
		{`{"done": true, "answer": "booked"}`, true, true, "booked"},
		{`{"done": false, "words": "gave up"}`, true, false, ""},
		{`{"done": true, "answer": {"room": "north"}}`, true, true, `{"room":"north"}`},
		{`{"answer": "no done"}`, false, false, ""},
		{`saved!`, false, false, ""},
		{``, false, false, ""},
	} {
		got, ok := parseClaim(c.in)
		if ok != c.ok || (ok && (got.Done != c.done || got.Answer != c.answer || got.Source != agent.ClaimProcess)) {
			t.Errorf("%q: %+v %v, want done %v answer %q (%v)", c.in, got, ok, c.done, c.answer, c.ok)
		}
	}
}

// TestTailKeepsTheEnd: the log keeps its last bytes and says when earlier ones were cut.
func TestTailKeepsTheEnd(t *testing.T) {
	tl := &tail{max: 11}
	_, _ = tl.Write([]byte("0123456789abc\nlast line\n\n"))
	if s := tl.String(); !strings.HasPrefix(s, "[earlier output cut]") || !strings.HasSuffix(s, "last line\n\n") {
		t.Errorf("tail: %q", s)
	}
	if l := tl.lastLine(); l != "last line" {
		t.Errorf("last line %q", l)
	}
}
