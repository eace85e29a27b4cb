package browser

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestChooseSkipsSnapWrappersAndMissingBrowsers(t *testing.T) {
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
		name  string
		paths []string
		want  string // "" wants ErrNoChromium
	}{
		{"a binary", []string{binary}, binary},
		{"past a missing one to Debian's launcher script", []string{missing, debian}, debian},
		{"past a snap script", []string{snapScript, binary}, binary},
		{"past a link to snap", []string{snapLink, debian}, debian},
		{"only snap wrappers and no Playwright Chromium", []string{snapScript, snapLink, missing}, ""},
	}
	t.Setenv("OBSERVATORY_CHROMIUM", "")
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", t.TempDir())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := Locator{System: func() []Candidate {
				var list []Candidate
				for _, p := range tt.paths {
					list = append(list, Candidate{Kind: KindChromium, Label: "Chromium", Path: p})
				}
				return list
			}}
			got, err := loc.Choose("")
			if tt.want == "" {
				if !errors.Is(err, ErrNoChromium) {
					t.Errorf("Choose = %+v, %v; want ErrNoChromium", got, err)
				}
			} else if err != nil || got.Path != tt.want {
				t.Errorf("Choose = %+v, %v; want %q", got, err, tt.want)
			}
			all := loc.Candidates()
			if len(all) != len(tt.paths)+1 || all[len(all)-1].Kind != KindPlaywright || all[len(all)-1].Found {
				t.Errorf("Candidates = %+v, want the paths then Playwright's Chromium, not found", all)
			}
			for _, c := range all[:len(tt.paths)] {
				if c.Found != (c.Path == binary || c.Path == debian) || (!c.Found && c.Note == "") {
					t.Errorf("candidate %s: found %v, note %q", c.Path, c.Found, c.Note)
				}
			}
		})
	}
}

func TestChooseNamedBrowserFirst(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	loc := Locator{System: func() []Candidate { return nil }}
	t.Setenv("OBSERVATORY_CHROMIUM", "/nonexistent/from-env")
	if got, err := loc.Choose(self); err != nil || got.Path != self || got.Kind != KindNamed {
		t.Errorf("Choose(explicit) = %+v, %v; want the explicit path", got, err)
	}
	if _, err := loc.Choose(""); !errors.Is(err, ErrNoChromium) {
		t.Errorf("Choose with a missing OBSERVATORY_CHROMIUM = %v, want ErrNoChromium", err)
	}
}

// TestHeadlessRunsUseTheShellBesideTheBrowser: a headless launch of a browser the user did
// not name runs the headless shell installed in its folder, or in the folder a link to it
// points into; a named browser runs as named, and without a shell the browser itself runs.
func TestHeadlessRunsUseTheShellBesideTheBrowser(t *testing.T) {
	t.Setenv("OBSERVATORY_CHROMIUM", "")
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", t.TempDir())
	exe := func(path string) string {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("\x7fELF a browser"), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	root := t.TempDir()
	lib := exe(filepath.Join(root, "lib", "chromium", "chromium"))
	shell := exe(filepath.Join(root, "lib", "chromium", "chromium-headless-shell"))
	bin := filepath.Join(root, "bin", "chromium")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(lib, bin); err != nil {
		t.Fatal(err)
	}
	alone := exe(filepath.Join(root, "other", "alone", "chrome"))
	// Debian's layout: launcher scripts in usr/bin, the binaries in usr/lib/chromium.
	script := func(path, runs string) string {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh -e\n"+runs+" \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	debLib := filepath.Join(root, "usr", "lib", "chromium")
	debBrowser := script(filepath.Join(root, "usr", "bin", "chromium"), exe(filepath.Join(debLib, "chromium")))
	script(filepath.Join(root, "usr", "bin", "chromium-headless-shell"), exe(filepath.Join(debLib, "chromium-headless-shell")))
	onlyScript := script(filepath.Join(root, "other", "scripts", "chromium"), lib)
	shellScript := script(filepath.Join(root, "other", "scripts", "chromium-headless-shell"), shell)
	system := func(paths ...string) Locator {
		return Locator{System: func() []Candidate {
			var list []Candidate
			for _, p := range paths {
				list = append(list, Candidate{Kind: KindChromium, Label: "Chromium", Path: p})
			}
			return list
		}}
	}
	for _, tt := range []struct {
		name     string
		loc      Locator
		explicit string
		want     string
		kind     string
	}{
		{"the shell beside the browser", system(lib), "", shell, KindHeadlessShell},
		{"the shell where a link to the browser points", system(bin), "", shell, KindHeadlessShell},
		{"no shell: the browser", system(alone), "", alone, KindChromium},
		{"Debian's: the shell's binary, not its launcher", system(debBrowser), "", filepath.Join(debLib, "chromium-headless-shell"), KindHeadlessShell},
		{"a launcher when no binary is found", system(onlyScript), "", shellScript, KindHeadlessShell},
		{"a named browser, even with a shell beside it", system(), lib, lib, KindNamed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			chosen, err := tt.loc.Choose(tt.explicit)
			if err != nil || chosen.Kind == KindHeadlessShell {
				t.Fatalf("Choose = %+v, %v; a window needs the full browser", chosen, err)
			}
			if got := chosen.Headless(); got.Path != tt.want || got.Kind != tt.kind || !got.Found {
				t.Errorf("Choose(%q).Headless() = %+v; want %s %s", tt.explicit, got, tt.kind, tt.want)
			}
		})
	}
}

func TestHeadlessShellNamesOnWindowsEndInExe(t *testing.T) {
	for _, name := range headlessShellNames("windows") {
		if filepath.Ext(name) != ".exe" {
			t.Errorf("%s: a Windows executable's name ends in .exe", name)
		}
	}
}

func TestInstalledBrowsersChromeFirst(t *testing.T) {
	env := map[string]string{`LOCALAPPDATA`: `C:\Users\ada\AppData\Local`, `ProgramFiles`: `C:\Program Files`}
	tests := []struct {
		goos string
		want []string
	}{
		{"windows", []string{
			`chrome C:\Users\ada\AppData\Local\Google\Chrome\Application\chrome.exe`,
			`chrome C:\Program Files\Google\Chrome\Application\chrome.exe`,
			`msedge C:\Users\ada\AppData\Local\Microsoft\Edge\Application\msedge.exe`,
			`msedge C:\Program Files\Microsoft\Edge\Application\msedge.exe`,
		}},
		{"darwin", []string{
			"chrome /Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"msedge /Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
		}},
		{"linux", []string{"chrome /opt/google/chrome/chrome", "msedge /opt/microsoft/msedge/msedge"}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range installedBrowsers(tt.goos, func(k string) string { return env[k] }) {
			got = append(got, c.Kind+" "+c.Path)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("installedBrowsers(%s) = %q, want %q", tt.goos, got, tt.want)
		}
	}
}
