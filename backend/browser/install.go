package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/mxschmitt/playwright-go"
)

// systemFFmpeg is Debian's ffmpeg, which Playwright uses to encode video once linked into place.
const systemFFmpeg = "/usr/bin/ffmpeg"

// Install installs the Playwright driver (never a browser) and, on Linux, links the system
// ffmpeg to where Playwright looks for it when recording video. Work already done is skipped,
// so it is safe to call on every start. The download itself cannot be interrupted: ctx is
// checked before it starts.
func Install(ctx context.Context) error {
	if err := install(ctx, installOptions(false)); err != nil {
		return fmt.Errorf("install the Playwright driver (it is fetched from the npm registry): %w", err)
	}
	return linkFFmpeg()
}

// InstallWithBrowser does what Install does and also downloads Playwright's own Chromium, with
// the system libraries it needs (through apt, as root or with sudo), for machines without a
// usable system Chromium: on Ubuntu the chromium package is a snap wrapper Playwright cannot
// drive. Launch uses it when there is no system Chromium. It needs internet access.
func InstallWithBrowser(ctx context.Context) error {
	if err := install(ctx, installOptions(true)); err != nil {
		return fmt.Errorf("install the Playwright driver and its Chromium (they are downloaded from the npm registry and Playwright's CDN): %w", err)
	}
	return linkFFmpeg()
}

// installOptions are the Playwright install options: the driver alone, or with Chromium.
func installOptions(withBrowser bool) *playwright.RunOptions {
	if !withBrowser {
		return &playwright.RunOptions{SkipInstallBrowsers: true, Verbose: false}
	}
	return &playwright.RunOptions{Browsers: []string{"chromium"}, WithDeps: true, Verbose: false}
}

// install runs Playwright's installer with opts, using the system node. The download itself
// cannot be interrupted: ctx is checked before it starts.
func install(ctx context.Context, opts *playwright.RunOptions) error {
	if err := useSystemNode(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return playwright.Install(opts)
}

// useSystemNode points Playwright at the node on PATH unless PLAYWRIGHT_NODEJS_PATH is set, so
// the driver needs no Node.js download.
func useSystemNode() error {
	if os.Getenv("PLAYWRIGHT_NODEJS_PATH") != "" {
		return nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return errors.New("no node on PATH: install Debian's nodejs package or set PLAYWRIGHT_NODEJS_PATH")
	}
	return os.Setenv("PLAYWRIGHT_NODEJS_PATH", node)
}

// driverDir is where playwright-go keeps the driver: PLAYWRIGHT_DRIVER_PATH, else the user cache.
func driverDir() (string, error) {
	if dir := os.Getenv("PLAYWRIGHT_DRIVER_PATH"); dir != "" {
		return dir, nil
	}
	driver, err := playwright.NewDriver(&playwright.RunOptions{Verbose: false})
	if err != nil {
		return "", fmt.Errorf("locate the Playwright driver: %w", err)
	}
	// playwright-go uses ~/.cache on Linux whatever XDG_CACHE_HOME says.
	cache, err := os.UserCacheDir()
	if runtime.GOOS == "linux" {
		cache, err = os.UserHomeDir()
		cache = filepath.Join(cache, ".cache")
	}
	if err != nil {
		return "", fmt.Errorf("locate the Playwright driver: %w", err)
	}
	return filepath.Join(cache, "ms-playwright-go", driver.Version), nil
}

// browsersDir is where Playwright looks for browsers and ffmpeg.
func browsersDir() (string, error) {
	if dir := os.Getenv("PLAYWRIGHT_BROWSERS_PATH"); dir != "" && dir != "0" {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("locate Playwright's browser folder: %w", err)
	}
	return filepath.Join(cache, "ms-playwright"), nil
}

// ffmpegRevision reads the ffmpeg revision the installed driver expects from its browsers.json.
func ffmpegRevision(driver string) (string, error) {
	path := filepath.Join(driver, "package", "browsers.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read the driver's browser list: %w", err)
	}
	var list struct {
		Browsers []struct {
			Name     string `json:"name"`
			Revision string `json:"revision"`
		} `json:"browsers"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return "", fmt.Errorf("parse %s: %w", path, err)
	}
	for _, b := range list.Browsers {
		if b.Name == "ffmpeg" {
			return b.Revision, nil
		}
	}
	return "", fmt.Errorf("%s names no ffmpeg revision", path)
}

// linkFFmpeg makes Playwright's ffmpeg path a symlink to the system ffmpeg, unless something
// is already there. Elsewhere than Linux there is no system ffmpeg to link.
func linkFFmpeg() error {
	if runtime.GOOS != "linux" {
		return nil
	}
	if _, err := os.Stat(systemFFmpeg); err != nil {
		return fmt.Errorf("no %s for video recording: install Debian's ffmpeg package (scripts/setup.sh does)", systemFFmpeg)
	}
	driver, err := driverDir()
	if err != nil {
		return err
	}
	rev, err := ffmpegRevision(driver)
	if err != nil {
		return err
	}
	browsers, err := browsersDir()
	if err != nil {
		return err
	}
	link := filepath.Join(browsers, "ffmpeg-"+rev, "ffmpeg-linux")
	if _, err := os.Lstat(link); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return fmt.Errorf("create the ffmpeg folder for video: %w", err)
	}
	if err := os.Symlink(systemFFmpeg, link); err != nil {
		return fmt.Errorf("link %s for video: %w", systemFFmpeg, err)
	}
	return nil
}

// DriverCLI is the Playwright driver's command line script (package/cli.js), which also runs
// a browser server: `node CLI run-server`.
func DriverCLI() (string, error) {
	if err := checkDriver(); err != nil {
		return "", err
	}
	if cli := os.Getenv("PLAYWRIGHT_CLI_PATH"); cli != "" {
		return cli, nil
	}
	dir, err := driverDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "package", "cli.js"), nil
}

// ChromiumPath is the Chromium Launch would run when given none: $OBSERVATORY_CHROMIUM, else
// the system Chromium; "" means Playwright's own.
func ChromiumPath() (string, error) { return chromiumPath("") }
