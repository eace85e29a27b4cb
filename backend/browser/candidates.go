package browser

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Candidate kinds, in the order they are tried after a named executable.
const (
	KindNamed      = "named"
	KindChrome     = "chrome"
	KindEdge       = "msedge"
	KindChromium   = "chromium"
	KindPlaywright = "playwright"
	// KindHeadlessShell is Chromium's headless shell, found beside the browser chosen.
	KindHeadlessShell = "headless-shell"
)

// Candidate is a browser Observatory can drive, and whether it is there.
type Candidate struct {
	// Kind is one of the Kind constants.
	Kind string `json:"kind"`
	// Label names it for people: "Google Chrome", "Chromium", "Playwright's Chromium".
	Label string `json:"label"`
	// Path is its executable.
	Path string `json:"path"`
	// Found is true when Path exists and can be driven.
	Found bool `json:"found"`
	// Note says why one that is not found was passed over.
	Note string `json:"note,omitempty"`
}

// Locator finds the browsers to drive. Its zero value looks where this system's browsers install.
type Locator struct {
	// System lists the installed browsers to try, in order, before Playwright's Chromium;
	// nil lists this system's Chrome, Edge and Chromium (see SystemBrowsers).
	System func() []Candidate
}

// Candidates are every browser tried, in order, each checked: this system's Chrome, Edge and
// Chromium, then Playwright's own Chromium.
func (l Locator) Candidates() []Candidate {
	system := l.System
	if system == nil {
		system = SystemBrowsers
	}
	list := append(system(), playwrightCandidate())
	for i := range list {
		if list[i].Kind != KindPlaywright {
			list[i] = check(list[i])
		}
	}
	return list
}

// Choose picks the browser to drive: explicit when given, else $OBSERVATORY_CHROMIUM, else
// the first candidate found. A named executable that does not exist, or no candidate at
// all, is ErrNoChromium.
func (l Locator) Choose(explicit string) (Candidate, error) {
	for _, named := range []struct{ path, label string }{{explicit, "the chosen browser"}, {os.Getenv("OBSERVATORY_CHROMIUM"), "OBSERVATORY_CHROMIUM"}} {
		if named.path == "" {
			continue
		}
		c := check(Candidate{Kind: KindNamed, Label: named.label, Path: named.path})
		if !c.Found {
			return c, fmt.Errorf("%w: %s %s: %s", ErrNoChromium, named.label, named.path, c.Note)
		}
		return c, nil
	}
	for _, c := range l.Candidates() {
		if c.Found {
			return c, nil
		}
	}
	return Candidate{}, ErrNoChromium
}

// Headless is what a headless launch of c runs: the headless shell installed beside it,
// when there is one and c was not named by the user; else c itself. The shell is Chromium
// built to run headless only, what Playwright itself launches for headless runs; the full
// browser's headless mode also runs its window's web-UI renderers, which cost several times
// the CPU for every page. A named browser is the one that runs.
func (c Candidate) Headless() Candidate {
	if c.Kind == KindNamed {
		return c
	}
	if shell, ok := HeadlessShell(c); ok {
		return shell
	}
	return c
}

// headlessShellNames are the names the headless shell installs under: Debian's package,
// Chromium's own build, and Chrome for Testing's; with ".exe" on Windows.
func headlessShellNames(goos string) []string {
	names := []string{"chromium-headless-shell", "headless_shell", "chrome-headless-shell"}
	if goos == "windows" {
		for i := range names {
			names[i] += ".exe"
		}
	}
	return names
}

// HeadlessShell is the headless shell installed with c, and whether there is one: in c's
// folder, in the folder a link at c's path points into, or, for Chromium, in Debian's
// layout, where /usr/bin/chromium launches /usr/lib/chromium/chromium. A launcher script
// gives way to a binary found too, so the shell is the process Playwright starts, watches and
// stops. Playwright's own Chromium keeps no shell beside it, so it has none.
func HeadlessShell(c Candidate) (Candidate, bool) {
	if c.Path == "" {
		return Candidate{}, false
	}
	dirs := []string{filepath.Dir(c.Path)}
	if real, err := filepath.EvalSymlinks(c.Path); err == nil {
		dirs = append(dirs, filepath.Dir(real))
	}
	if c.Kind == KindChromium {
		dirs = append(dirs, filepath.Join(filepath.Dir(c.Path), "..", "lib", "chromium"))
	}
	var script *Candidate
	for _, dir := range dirs {
		for _, name := range headlessShellNames(runtime.GOOS) {
			shell := check(Candidate{Kind: KindHeadlessShell, Label: "Chromium headless shell", Path: filepath.Clean(filepath.Join(dir, name))})
			switch {
			case !shell.Found:
			case !launcherScript(shell.Path):
				return shell, true
			case script == nil:
				script = &shell
			}
		}
	}
	if script != nil {
		return *script, true
	}
	return Candidate{}, false
}

// check sets c.Found and c.Note from what is at c.Path.
func check(c Candidate) Candidate {
	c.Found, c.Note = false, ""
	switch _, err := os.Stat(c.Path); {
	case err != nil:
		c.Note = "not installed"
	case snapWrapper(c.Path):
		c.Note = "a snap wrapper, which Playwright cannot drive"
	default:
		c.Found = true
	}
	return c
}

// snapWrapper reports whether path is Ubuntu's stand-in for a snap Chromium, which Playwright
// cannot drive: a link into the snap binary, or a script that runs something under /snap/.
func snapWrapper(path string) bool {
	if real, err := filepath.EvalSymlinks(path); err == nil &&
		(filepath.Base(real) == "snap" || strings.HasPrefix(real, "/snap/")) {
		return true
	}
	head, script := scriptHead(path)
	return script && bytes.Contains(head, []byte("/snap/"))
}

// launcherScript reports whether path is a script (a launcher) rather than a binary.
func launcherScript(path string) bool {
	_, script := scriptHead(path)
	return script
}

// scriptHead is the first 8 KiB of the file at path, and whether it is a script ("#!").
func scriptHead(path string) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	return head, bytes.HasPrefix(head, []byte("#!"))
}

// playwrightCandidate is Playwright's own Chromium for the installed driver.
func playwrightCandidate() Candidate {
	c := Candidate{Kind: KindPlaywright, Label: "Playwright's Chromium"}
	if checkDriverCLI() != nil {
		c.Note = "needs the Playwright driver, which is not installed yet"
		return c
	}
	pc, err := LocatePlaywrightChromium()
	switch {
	case err != nil:
		c.Note = err.Error()
	case pc.Installed():
		c.Path, c.Found = pc.Executable, true
	default:
		c.Path, c.Note = pc.Executable, "not downloaded"
	}
	return c
}

// chromiumPaths are the system Chromium paths tried after Chromium on PATH.
var chromiumPaths = []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"}

// SystemBrowsers are this system's Google Chrome and Microsoft Edge where their installers
// put them (the browsers Playwright's chrome and msedge channels start), then Chromium on
// PATH and at the system paths, each once. They are not checked yet.
func SystemBrowsers() []Candidate {
	list := installedBrowsers(runtime.GOOS, os.Getenv)
	seen := map[string]bool{}
	var paths []string
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			paths = append(paths, path)
		}
	}
	for _, path := range append(paths, chromiumPaths...) {
		if !seen[path] {
			seen[path] = true
			list = append(list, Candidate{Kind: KindChromium, Label: "Chromium", Path: path})
		}
	}
	return list
}

// installedBrowsers are where the stable Google Chrome and Microsoft Edge install on goos,
// Chrome first. On Windows they are under the folders the environment names (getenv), per
// user before per machine.
func installedBrowsers(goos string, getenv func(string) string) []Candidate {
	chrome := func(path string) Candidate { return Candidate{Kind: KindChrome, Label: "Google Chrome", Path: path} }
	edge := func(path string) Candidate { return Candidate{Kind: KindEdge, Label: "Microsoft Edge", Path: path} }
	switch goos {
	case "windows":
		var list []Candidate
		for _, app := range []struct {
			path string
			make func(string) Candidate
		}{{`Google\Chrome\Application\chrome.exe`, chrome}, {`Microsoft\Edge\Application\msedge.exe`, edge}} {
			for _, root := range []string{"LOCALAPPDATA", "ProgramFiles", "ProgramFiles(x86)"} {
				if dir := getenv(root); dir != "" {
					list = append(list, app.make(dir+`\`+app.path))
				}
			}
		}
		return list
	case "darwin":
		return []Candidate{
			chrome("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"),
			edge("/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"),
		}
	default:
		return []Candidate{chrome("/opt/google/chrome/chrome"), edge("/opt/microsoft/msedge/msedge")}
	}
}

// ChromiumPath is the browser a headless Launch would run when given none (see
// Candidate.Headless).
func ChromiumPath() (string, error) {
	c, err := Locator{}.Choose("")
	return c.Headless().Path, err
}
