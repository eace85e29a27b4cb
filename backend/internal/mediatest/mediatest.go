// Package mediatest helps tests check recorded media with the tools a user would trust.
package mediatest

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// VideoSeconds asks ffprobe (shipped with Debian's ffmpeg, which scripts/setup.sh installs)
// how long the video at path plays. ok is false, with a log line, when ffprobe is missing.
func VideoSeconds(t testing.TB, path string) (secs float64, ok bool) {
	t.Helper()
	ffprobe, err := exec.LookPath("ffprobe")
	if err != nil {
		t.Log("ffprobe is not installed (Debian's ffmpeg ships it; scripts/setup.sh installs it)")
		return 0, false
	}
	out, err := exec.Command(ffprobe, "-v", "error", "-show_entries", "format=duration",
		"-of", "default=noprint_wrappers=1:nokey=1", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	secs, err = strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		t.Fatalf("ffprobe gave the duration of %s as %q: %v", path, out, err)
	}
	return secs, true
}
