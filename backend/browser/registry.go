package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"observatory/backend/jsonstrict"
)

// defaultDownloadHost serves Playwright's Chrome for Testing builds, as the driver's own
// registry downloads them; PLAYWRIGHT_CHROMIUM_DOWNLOAD_HOST or PLAYWRIGHT_DOWNLOAD_HOST
// replace it, as they do for `playwright install`.
const defaultDownloadHost = "https://cdn.playwright.dev"

// installedMarker is the file Playwright writes into a browser's folder once it is complete.
const installedMarker = "INSTALLATION_COMPLETE"

// registryEntry is one browser of the driver's browsers.json.
type registryEntry struct {
	Name           string `json:"name"`
	Revision       string `json:"revision"`
	BrowserVersion string `json:"browserVersion"`
}

// readRegistry reads the browsers the installed driver expects (package/browsers.json).
func readRegistry() ([]registryEntry, error) {
	driver, err := driverDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(driver, "package", "browsers.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the Playwright driver's browser list (is the driver installed? `observatory install`): %w", err)
	}
	var list struct {
		Browsers []registryEntry `json:"browsers"`
	}
	if err := jsonstrict.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return list.Browsers, nil
}

// registryBrowser is the entry named name in the driver's browsers.json.
func registryBrowser(name string) (registryEntry, error) {
	list, err := readRegistry()
	if err != nil {
		return registryEntry{}, err
	}
	for _, b := range list {
		if b.Name == name {
			return b, nil
		}
	}
	return registryEntry{}, fmt.Errorf("the Playwright driver's browsers.json names no %s", name)
}

// cftBuild is where a Chrome for Testing build of one platform lives: its folder and zip on
// the download host, and its executable inside the zip's top folder.
type cftBuild struct {
	hostDir, zip string
	exe          []string
}

// cftBuilds are the Chrome for Testing builds Playwright installs as its Chromium, by GOOS/GOARCH.
var cftBuilds = map[string]cftBuild{
	"linux/amd64":   {"linux64", "chrome-linux64", []string{"chrome"}},
	"linux/arm64":   {"linux-arm64", "chrome-linux-arm64", []string{"chrome"}},
	"darwin/amd64":  {"mac-x64", "chrome-mac-x64", macChrome},
	"darwin/arm64":  {"mac-arm64", "chrome-mac-arm64", macChrome},
	"windows/amd64": {"win64", "chrome-win64", []string{"chrome.exe"}},
}

// macChrome is the executable inside the macOS build's top folder.
var macChrome = []string{"Google Chrome for Testing.app", "Contents", "MacOS", "Google Chrome for Testing"}

// PlaywrightChromium is Playwright's own Chromium for this driver: where it installs and
// where it is downloaded from.
type PlaywrightChromium struct {
	// Dir is its folder in Playwright's browser folder, chromium-<revision>.
	Dir string
	// Executable is the browser inside Dir.
	Executable string
	// URL is the zip to download.
	URL string
	// Version is the Chromium version, as browsers.json names it.
	Version string
}

// Installed reports whether the browser is complete on disk: Playwright's marker and the executable.
func (c PlaywrightChromium) Installed() bool {
	for _, path := range []string{filepath.Join(c.Dir, installedMarker), c.Executable} {
		if _, err := os.Stat(path); err != nil {
			return false
		}
	}
	return true
}

// LocatePlaywrightChromium says where the installed driver's Chromium is, or would be once
// downloaded, on this system.
func LocatePlaywrightChromium() (PlaywrightChromium, error) {
	build, ok := cftBuilds[runtime.GOOS+"/"+runtime.GOARCH]
	if !ok {
		return PlaywrightChromium{}, fmt.Errorf("Playwright has no Chromium build for %s/%s: install Chrome, Edge or Chromium instead", runtime.GOOS, runtime.GOARCH)
	}
	entry, err := registryBrowser("chromium")
	if err != nil {
		return PlaywrightChromium{}, err
	}
	browsers, err := browsersDir()
	if err != nil {
		return PlaywrightChromium{}, err
	}
	dir := filepath.Join(browsers, "chromium-"+entry.Revision)
	return PlaywrightChromium{
		Dir:        dir,
		Executable: filepath.Join(append([]string{dir, build.zip}, build.exe...)...),
		URL:        fmt.Sprintf("%s/builds/cft/%s/%s/%s.zip", downloadHost(), entry.BrowserVersion, build.hostDir, build.zip),
		Version:    entry.BrowserVersion,
	}, nil
}

// downloadHost is the host Chromium is downloaded from: the variables Playwright's own
// installer reads, else Playwright's CDN.
func downloadHost() string {
	for _, name := range []string{"PLAYWRIGHT_CHROMIUM_DOWNLOAD_HOST", "PLAYWRIGHT_DOWNLOAD_HOST"} {
		if host := os.Getenv(name); host != "" {
			return host
		}
	}
	return defaultDownloadHost
}
