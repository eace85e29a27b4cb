package browser

import (
	"context"
	"fmt"
	"io"
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
// so it is safe to call on every start.
func Install(ctx context.Context) error {
	if err := InstallDriver(ctx, func(Progress) {}); err != nil {
		return err
	}
	return LinkFFmpeg()
}

// InstallWithBrowser does what Install does and also downloads Playwright's own Chromium (see
// DownloadChromium) and, on Linux, the system libraries it needs (Playwright's install-deps,
// through apt, as root or with sudo), for machines without Chrome, Edge or a usable Chromium:
// on Ubuntu the chromium package is a snap wrapper Playwright cannot drive. Progress goes to
// progress, and what apt says to out. It returns the downloaded browser's executable.
func InstallWithBrowser(ctx context.Context, progress ProgressFunc, out io.Writer) (string, error) {
	if err := InstallDriver(ctx, progress); err != nil {
		return "", err
	}
	exe, err := DownloadChromium(ctx, progress)
	if err != nil {
		return "", err
	}
	if err := installDeps(ctx, out); err != nil {
		return "", err
	}
	return exe, LinkFFmpeg()
}

// driverOnly are the options that make playwright-go install the driver and no browser;
// fresh each time, since playwright-go fills in the driver's folder.
func driverOnly() *playwright.RunOptions {
	return &playwright.RunOptions{SkipInstallBrowsers: true, Verbose: false}
}

// installDeps installs the system libraries Chromium needs on Linux with the driver's
// install-deps, writing what it says to out; elsewhere there are none to install.
func installDeps(ctx context.Context, out io.Writer) error {
	if runtime.GOOS != "linux" {
		return nil
	}
	driver, err := playwright.NewDriver(driverOnly())
	if err != nil {
		return err
	}
	cmd := driver.Command("install-deps", "chromium")
	cmd.Stdout, cmd.Stderr = out, out
	if err := runCommand(ctx, cmd); err != nil {
		return fmt.Errorf("install the system libraries Chromium needs (playwright install-deps chromium, through apt): %w", err)
	}
	return nil
}

// runCommand runs cmd, killing it when ctx ends.
func runCommand(ctx context.Context, cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		return ctx.Err()
	}
}

// UseSystemNode points Playwright at the node on PATH (Debian's nodejs on Linux) unless
// PLAYWRIGHT_NODEJS_PATH is set, so the driver needs no Node.js of its own. Without one,
// playwright-go runs the Node.js kept beside the driver, which InstallDriver downloads. It
// sets the process's environment, so call it at start-up, before the desktop window: setting
// the environment while WebKit's threads read it leaves the window unresponsive.
func UseSystemNode() error {
	if os.Getenv("PLAYWRIGHT_NODEJS_PATH") != "" {
		return nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil
	}
	return os.Setenv("PLAYWRIGHT_NODEJS_PATH", node)
}

// bundledNode is the Node.js playwright-go runs when PLAYWRIGHT_NODEJS_PATH is unset: the one
// beside the driver.
func bundledNode() (string, error) {
	dir, err := driverDir()
	if err != nil {
		return "", err
	}
	name := "node"
	if runtime.GOOS == "windows" {
		name = "node.exe"
	}
	return filepath.Join(dir, name), nil
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

// LinkFFmpeg makes Playwright's ffmpeg path a symlink to the system ffmpeg, so that video
// recording works, unless something is already there. Elsewhere than Linux there is no
// system ffmpeg to link.
func LinkFFmpeg() error {
	if runtime.GOOS != "linux" {
		return nil
	}
	if _, err := os.Stat(systemFFmpeg); err != nil {
		return fmt.Errorf("no %s for video recording: install Debian's ffmpeg package (scripts/setup.sh does)", systemFFmpeg)
	}
	link, err := playwrightFFmpeg()
	if err != nil {
		return err
	}
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
	if err := CheckDriver(); err != nil {
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
