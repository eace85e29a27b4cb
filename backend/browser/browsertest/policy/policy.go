// Package policy decides what a test does when the real browser it needs is missing: fail
// where a browser is required (scripts/test.sh, CI), skip elsewhere. It imports nothing of
// Observatory's, so the browser package's own tests can use it.
package policy

import (
	"os"
	"testing"
)

// RequireEnv names the environment variable that, set (to anything but "0" or "false"), makes
// a missing browser fail the test instead of skipping it. CI being set does the same.
const RequireEnv = "OBSERVATORY_REQUIRE_BROWSER"

// Hint says how to install what is missing.
const Hint = "run scripts/setup.sh, which installs Chromium and the Playwright driver"

// Required reports whether a missing browser must fail tests: RequireEnv or CI is set.
func Required() bool {
	return isSet(os.Getenv(RequireEnv)) || isSet(os.Getenv("CI"))
}

// isSet reports whether an environment variable's value turns a switch on.
func isSet(v string) bool {
	return v != "" && v != "0" && v != "false"
}

// Unavailable stops tb because the browser could not be installed or started (err says why):
// a fatal failure where Required, a skip elsewhere. Both say how to install it.
func Unavailable(tb testing.TB, err error) {
	tb.Helper()
	if Required() {
		tb.Fatalf("a browser is required here (%s or CI is set) but: %v\n%s", RequireEnv, err, Hint)
	} else {
		tb.Skipf("skipped, no browser: %v\n%s (set %s=1 to fail instead)", err, Hint, RequireEnv)
	}
}
