package policy

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// stopper records how Unavailable stopped a test instead of stopping the real one.
type stopper struct {
	testing.TB
	fatal, skip string
}

func (s *stopper) Helper()                        {}
func (s *stopper) Fatalf(format string, a ...any) { s.fatal = fmt.Sprintf(format, a...) }
func (s *stopper) Skipf(format string, a ...any)  { s.skip = fmt.Sprintf(format, a...) }

func TestUnavailable(t *testing.T) {
	tests := []struct {
		name, require, ci string
		fails             bool
	}{
		{name: "neither set skips"},
		{name: "require set fails", require: "1", fails: true},
		{name: "CI set fails", ci: "true", fails: true},
		{name: "require switched off skips", require: "0", ci: "false"},
	}
	missing := errors.New("no Chromium found")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(RequireEnv, tt.require)
			t.Setenv("CI", tt.ci)
			if got := Required(); got != tt.fails {
				t.Errorf("Required() = %v, want %v", got, tt.fails)
			}
			s := &stopper{}
			Unavailable(s, missing)
			got, other, want := s.skip, s.fatal, "a skip"
			if tt.fails {
				got, other, want = s.fatal, s.skip, "a failure"
			}
			if other != "" || !strings.Contains(got, missing.Error()) || !strings.Contains(got, Hint) {
				t.Errorf("fatal %q, skip %q: want only %s, naming the error and the hint", s.fatal, s.skip, want)
			}
		})
	}
}
