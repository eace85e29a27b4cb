package browser

import (
	"os"
	"path/filepath"
	"testing"
)

func TestChromiumPathPassesOverSnapWrappers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	binary := write("chromium-binary", "\x7fELF\x02\x01\x01 a real browser")
	debian := write("chromium-debian", "#!/bin/sh\n# Chromium launcher\nexec /usr/lib/chromium/chromium \"$@\"\n")
	snapScript := write("chromium-browser", "#!/bin/sh\nif ! [ -x /snap/bin/chromium ]; then exit 1; fi\nexec /snap/bin/chromium \"$@\"\n")
	snapLink := filepath.Join(dir, "chromium-link")
	if err := os.Symlink(write("snap", "\x7fELF snapd"), snapLink); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	tests := []struct {
		name       string
		candidates []string
		want       string
	}{
		{"a binary", []string{binary}, binary},
		{"Debian's launcher script", []string{missing, debian}, debian},
		{"past a snap script", []string{snapScript, binary}, binary},
		{"past a link to snap", []string{snapLink, debian}, debian},
		{"only snap wrappers: Playwright's default", []string{snapScript, snapLink, missing}, ""},
	}
	saved := chromiumCandidates
	t.Cleanup(func() { chromiumCandidates = saved })
	t.Setenv("OBSERVATORY_CHROMIUM", "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chromiumCandidates = tt.candidates
			got, err := chromiumPath("")
			if err != nil || got != tt.want {
				t.Errorf("chromiumPath = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
