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

// TestThrownNamesTheError: an agent's crash is reported by the error it threw, not by the
// runtime's trailer after it.
func TestThrownNamesTheError(t *testing.T) {
	node := "file:///tmp/agent.js:12\n    throw new TypeError(\"boom\");\n    ^\n\nTypeError: boom\n    at file:///tmp/agent.js:12:11\n    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)\n\nNode.js v20.19.2\n"
	python := "Traceback (most recent call last):\n  File \"agent.py\", line 3, in <module>\n    main()\nValueError: no page\n"
	for _, c := range []struct{ log, want string }{
		{node, "TypeError: boom"},
		{"saving\nTimeoutError: Waiting for selector `#x` failed\n    at Timeout.<anonymous> (file:///a.js:1:1)\nNode.js v22.1.0\n", "TimeoutError: Waiting for selector `#x` failed"},
		{python, "ValueError: no page"},
		{"plain last words\n\n", "plain last words"},
		{"", ""},
	} {
		if got := thrown(c.log); got != c.want {
			t.Errorf("thrown(%q) = %q, want %q", c.log, got, c.want)
		}
	}
}
