//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestImportAndVerifyReadAPipe feeds files through a FIFO, which, like /dev/stdin, cannot
// rewind: the sniff that tells a bundle from a run file must not eat the start of either.
func TestImportAndVerifyReadAPipe(t *testing.T) {
	dir := t.TempDir()
	run1 := bookingRun(t, "")
	run2 := bookingRun(t, "saves-normally.webm")
	tests := []struct {
		name string
		args []string
		data []byte
		out  string
	}{
		{"import a run file", []string{"import"}, runFileBytes(t, run1), "imported "},
		{"import a bundle", []string{"import"}, bundleBytes(t, run2, map[string][]byte{"saves-normally.webm": []byte("webm")}), "imported "},
		{"verify a run file", []string{"verify"}, runFileBytes(t, run1), "saves-normally"},
	}
	for _, tt := range tests {
		fifo := filepath.Join(t.TempDir(), "pipe")
		if err := unix.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			f.Write(tt.data)
			f.Close()
		}()
		code, out, errOut := run(t, append(tt.args, fifo, "--data-dir", dir)...)
		if code != 0 || !strings.Contains(out, tt.out) {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q", tt.name, code, out, errOut)
		}
	}
	if _, out, _ := run(t, "runs", "--data-dir", dir); strings.Count(out, "booking") != 2 {
		t.Errorf("want the two imported runs:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "media")); err != nil {
		t.Errorf("the bundle's media were not extracted: %v", err)
	}
}
