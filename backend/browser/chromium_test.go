package browser

import (
	"os"
	"path/filepath"
	"slices"
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
	saved := browserCandidates
	t.Cleanup(func() { browserCandidates = saved })
	t.Setenv("OBSERVATORY_CHROMIUM", "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			browserCandidates = func() []string { return tt.candidates }
			got, err := chromiumPath("")
			if err != nil || got != tt.want {
				t.Errorf("chromiumPath = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestInstalledBrowsersChromeFirst(t *testing.T) {
	env := map[string]string{`LOCALAPPDATA`: `C:\Users\ada\AppData\Local`, `ProgramFiles`: `C:\Program Files`}
	tests := []struct {
		goos string
		want []string
	}{
		{"windows", []string{
			`C:\Users\ada\AppData\Local\Google\Chrome\Application\chrome.exe`,
			`C:\Program Files\Google\Chrome\Application\chrome.exe`,
			`C:\Users\ada\AppData\Local\Microsoft\Edge\Application\msedge.exe`,
			`C:\Program Files\Microsoft\Edge\Application\msedge.exe`,
		}},
		{"darwin", []string{
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
		}},
		{"linux", []string{"/opt/google/chrome/chrome", "/opt/microsoft/msedge/msedge"}},
	}
	for _, tt := range tests {
		got := installedBrowsers(tt.goos, func(k string) string { return env[k] })
		if !slices.Equal(got, tt.want) {
			t.Errorf("installedBrowsers(%s) = %q, want %q", tt.goos, got, tt.want)
		}
	}
}
