package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunHelpGivesTraceNoValue(t *testing.T) {
	code, out, _ := run(t, "run", "--help")
	if code != 0 || !strings.Contains(out, "--trace  ") || strings.Contains(out, "--trace npx") {
		t.Errorf("run --help: exit %d; want --trace shown as a plain switch:\n%s", code, out)
	}
}

func TestExportIntoAMissingFolderFailsBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-folder", "run.json")
	// The browser path is bogus too: a run that started would fail to launch it, but still be
	// recorded.
	code, out, errOut := run(t, "run", "--attempt", "saves-normally", "--export", missing,
		"--browser", filepath.Join(dir, "no-chromium"), "--data-dir", dir)
	if code != 1 || out != "" || !strings.Contains(errOut, "--export "+missing+": cannot write into") || strings.Contains(errOut, "attempts on lab") {
		t.Errorf("run: exit %d\nstdout %q\nstderr %q\nwant exit 1 naming --export, before the run starts", code, out, errOut)
	}
	if _, out, _ := run(t, "runs", "--json", "--data-dir", dir); strings.TrimSpace(out) != "[]" {
		t.Errorf("a run was recorded: %s", out)
	}
}

func TestVerifyReadsABundlesRunFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.zip")
	data := bundleBytes(t, bookingRun(t, "saves-normally.webm"), map[string][]byte{"saves-normally.webm": []byte("webm")})
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "verify", path)
	if code != 0 || !strings.Contains(out, "saves-normally") || !strings.Contains(errOut, "every recorded verdict agrees") {
		t.Errorf("verify of a bundle: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	// Its refusals are the bundle's.
	bad := filepath.Join(t.TempDir(), "bad.zip")
	if err := os.WriteFile(bad, data[:len(data)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "verify", bad); code != 1 || !strings.Contains(errOut, "bundle refused: not a zip archive") {
		t.Errorf("verify of a damaged bundle: exit %d, %q", code, errOut)
	}
}
