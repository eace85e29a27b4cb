package cli

import (
	"bytes"
	"strings"
	"testing"

	"observatory/backend/browser"
)

func TestInstallProgressLinesEveryTenth(t *testing.T) {
	var out bytes.Buffer
	report := progressLines(&out)
	for done := int64(0); done <= 100_000_000; done += 1_000_000 {
		report(browser.Progress{Phase: "chromium", Done: done, Total: 100_000_000})
	}
	report(browser.Progress{Phase: "unpack", Done: 1, Total: 2})
	report(browser.Progress{Phase: "unpack", Done: 2, Total: 2})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 11+2 {
		t.Fatalf("%d lines, want 11 for the download and 2 for unpacking:\n%s", len(lines), &out)
	}
	for i, want := range map[int]string{
		0:  "downloading Chromium: 0% (0.0 MB of 100.0 MB)",
		5:  "downloading Chromium: 50% (50.0 MB of 100.0 MB)",
		10: "downloading Chromium: 100% (100.0 MB of 100.0 MB)",
		12: "unpacking: 100% (2 files of 2 files)",
	} {
		if lines[i] != want {
			t.Errorf("line %d = %q, want %q", i, lines[i], want)
		}
	}
}
