package agent

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

type loggedErr struct{ log string }

func (e loggedErr) Error() string      { return "launch Chromium: target closed" }
func (e loggedErr) BrowserLog() string { return e.log }

func TestBrowserLogOf(t *testing.T) {
	if got := BrowserLogOf(errors.New("plain\nsecond line")); got != "" {
		t.Errorf("an error that carries no log gave %q", got)
	}
	wrapped := fmt.Errorf("the first observation failed: %w", loggedErr{log: "  <launching> chromium\n"})
	if got := BrowserLogOf(wrapped); got != "<launching> chromium" {
		t.Errorf("a wrapped log: %q", got)
	}
	long := "start " + strings.Repeat("é", MaxBrowserLog) + " end"
	got := BrowserLogOf(loggedErr{log: long})
	if len(got) > MaxBrowserLog || !utf8.ValidString(got) || !strings.HasPrefix(got, "start ") || !strings.HasSuffix(got, " end") ||
		!strings.Contains(got, "bytes left out") {
		t.Errorf("a %d-byte log bounded to %d bytes: valid UTF-8 %v, %q…%q", len(long), len(got), utf8.ValidString(got), got[:10], got[len(got)-10:])
	}
}
