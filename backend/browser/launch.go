package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// Errors Launch reports, each saying how to fix it.
var (
	// ErrNoDriver means the Playwright driver has not been installed.
	ErrNoDriver = errors.New("the Playwright driver is not installed: run `observatory install` (or scripts/setup.sh)")
	// ErrNoChromium means no Chromium executable could be found or started.
	ErrNoChromium = errors.New("no browser found: install Google Chrome, Microsoft Edge or Chromium " +
		"(Debian's chromium package), or run `observatory install --with-browser` to download Playwright's Chromium; " +
		"or name one with --browser or OBSERVATORY_CHROMIUM")
)

// chromiumCandidates are the system Chromium paths tried after Chromium on PATH.
var chromiumCandidates = []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"}

// browserCandidates lists the executables tried when neither the option nor
// $OBSERVATORY_CHROMIUM names one, in order: installed Google Chrome and Microsoft Edge, then
// Chromium on PATH, then at the system paths. Ubuntu's snap wrappers among them are passed over;
// when none is left, Playwright's own Chromium is used.
var browserCandidates = func() []string {
	paths := installedBrowsers(runtime.GOOS, os.Getenv)
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			paths = append(paths, path)
		}
	}
	return append(paths, chromiumCandidates...)
}

// installedBrowsers are where the stable Google Chrome and Microsoft Edge install on goos,
// Chrome first: the executables Playwright's "chrome" and "msedge" channels start. On Windows
// they are under the folders the environment names (getenv), per user before per machine.
func installedBrowsers(goos string, getenv func(string) string) []string {
	switch goos {
	case "windows":
		var paths []string
		for _, app := range []string{`Google\Chrome\Application\chrome.exe`, `Microsoft\Edge\Application\msedge.exe`} {
			for _, root := range []string{"LOCALAPPDATA", "ProgramFiles", "ProgramFiles(x86)"} {
				if dir := getenv(root); dir != "" {
					paths = append(paths, dir+`\`+app)
				}
			}
		}
		return paths
	case "darwin":
		return []string{
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
		}
	default:
		return []string{"/opt/google/chrome/chrome", "/opt/microsoft/msedge/msedge"}
	}
}

// chromiumArgs keep Chromium quiet and deterministic: no background traffic, updates or GPU.
var chromiumArgs = []string{
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-gpu",
}

// viewport is the page and video size.
var viewport = playwright.Size{Width: 1000, Height: 700}

// Options choose how Chromium is launched.
type Options struct {
	Headless bool
	// ExecutablePath is the Chromium to run; empty tries $OBSERVATORY_CHROMIUM, then installed
	// Chrome and Edge, then Chromium on PATH or at the system paths, then Playwright's own.
	ExecutablePath string
	// SlowMo delays every Playwright operation, for watching a run.
	SlowMo time.Duration
}

// Browser is a running Chromium driven through Playwright. It implements agent.Browser.
type Browser struct {
	pw      *playwright.Playwright
	browser playwright.Browser
}

var _ agent.Browser = (*Browser)(nil)

// Launch starts the Playwright driver and Chromium. It never downloads a browser.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := useSystemNode(); err != nil {
		return nil, err
	}
	exe, err := chromiumPath(opts.ExecutablePath)
	if err != nil {
		return nil, err
	}
	if err := checkDriver(); err != nil {
		return nil, err
	}
	pw, err := playwright.Run(&playwright.RunOptions{Verbose: false})
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoDriver, err)
	}
	launch := playwright.BrowserTypeLaunchOptions{
		Headless: playwright.Bool(opts.Headless),
		Args:     launchArgs(),
		SlowMo:   playwright.Float(float64(opts.SlowMo.Milliseconds())),
	}
	if exe != "" {
		launch.ExecutablePath = playwright.String(exe)
	}
	b, err := call(ctx, func() (playwright.Browser, error) { return pw.Chromium.Launch(launch) })
	if err != nil {
		_ = pw.Stop()
		if ctx.Err() != nil {
			return nil, err
		}
		if exe == "" || strings.Contains(err.Error(), "Executable doesn't exist") {
			return nil, fmt.Errorf("%w (%v)", ErrNoChromium, err)
		}
		return nil, fmt.Errorf("launch Chromium %s: %w", exe, err)
	}
	return &Browser{pw: pw, browser: b}, nil
}

// chromiumPath picks the browser executable; "" means Playwright's own Chromium.
func chromiumPath(explicit string) (string, error) {
	for _, named := range []string{explicit, os.Getenv("OBSERVATORY_CHROMIUM")} {
		if named == "" {
			continue
		}
		if _, err := os.Stat(named); err != nil {
			return "", fmt.Errorf("%w: %s does not exist", ErrNoChromium, named)
		}
		return named, nil
	}
	for _, path := range browserCandidates() {
		if _, err := os.Stat(path); err == nil && !snapWrapper(path) {
			return path, nil
		}
	}
	return "", nil
}

// snapWrapper reports whether path is Ubuntu's stand-in for a snap Chromium, which Playwright
// cannot drive: a link into the snap binary, or a script that runs something under /snap/.
func snapWrapper(path string) bool {
	if real, err := filepath.EvalSymlinks(path); err == nil &&
		(filepath.Base(real) == "snap" || strings.HasPrefix(real, "/snap/")) {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	return bytes.HasPrefix(head, []byte("#!")) && bytes.Contains(head, []byte("/snap/"))
}

// checkDriver reports ErrNoDriver when the driver's CLI is not on disk.
func checkDriver() error {
	if cli := os.Getenv("PLAYWRIGHT_CLI_PATH"); cli != "" {
		if _, err := os.Stat(cli); err != nil {
			return fmt.Errorf("%w: PLAYWRIGHT_CLI_PATH %s does not exist", ErrNoDriver, cli)
		}
		return nil
	}
	dir, err := driverDir()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "package", "cli.js")); err != nil {
		return fmt.Errorf("%w: nothing at %s", ErrNoDriver, dir)
	}
	return nil
}

// launchArgs are chromiumArgs, plus --no-sandbox when running as root (Chromium refuses to
// start sandboxed as root).
func launchArgs() []string {
	args := append([]string(nil), chromiumArgs...)
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	return args
}

// Playwright returns the underlying Playwright browser, for code that needs Playwright's own
// API beyond agent.Page: end-to-end tests of the UI, and the bare-Playwright benchmark
// baseline. It shares this browser's launch (executable, flags) and lifetime.
func (b *Browser) Playwright() playwright.Browser { return b.browser }

// NewPage opens a page in a fresh browser context, so attempts share no cookies, storage or
// cache. With opts.Video it records the page into opts.MediaDir, and with opts.Trace it
// records a Playwright trace there.
func (b *Browser) NewPage(ctx context.Context, opts agent.PageOptions) (agent.Page, error) {
	if opts.MediaDir != "" && (opts.Video || opts.Screenshots || opts.Trace) {
		if err := os.MkdirAll(opts.MediaDir, 0o755); err != nil {
			return nil, fmt.Errorf("create the media folder: %w", err)
		}
	}
	size := viewport
	contextOpts := playwright.BrowserNewContextOptions{Viewport: &size}
	if recordsVideo(opts) {
		contextOpts.RecordVideo = &playwright.RecordVideo{Dir: playwright.String(opts.MediaDir), Size: &size}
	}
	// Opening a context and a page is quick, and it is waited for rather than abandoned on
	// cancellation: an abandoned call would leave a context nobody closes.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	bc, err := b.browser.NewContext(contextOpts)
	if err != nil {
		return nil, b.gone("open a browser context", err)
	}
	if recordsTrace(opts) {
		err := bc.Tracing().Start(playwright.TracingStartOptions{Screenshots: playwright.Bool(true), Snapshots: playwright.Bool(true)})
		if err != nil {
			_ = bc.Close()
			return nil, fmt.Errorf("start the Playwright trace: %w", err)
		}
	}
	pg, err := bc.NewPage()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		_ = bc.Close()
		return nil, b.gone("open a page", err)
	}
	return newPage(bc, pg, opts), nil
}

// recordsVideo reports whether a page with opts records video.
func recordsVideo(opts agent.PageOptions) bool {
	return opts.Video && opts.MediaDir != ""
}

// recordsTrace reports whether a page with opts records a Playwright trace.
func recordsTrace(opts agent.PageOptions) bool {
	return opts.Trace && opts.MediaDir != ""
}

// mediaName is the file name of the page's video or trace: opts.Name (or "page") and ext.
func mediaName(opts agent.PageOptions, ext string) string {
	stem := opts.Name
	if stem == "" {
		stem = "page"
	}
	return stem + ext
}

// gone marks err as agent.ErrBrowserGone when the browser is no longer connected.
func (b *Browser) gone(what string, err error) error {
	if !b.browser.IsConnected() || errors.Is(err, playwright.ErrTargetClosed) {
		return fmt.Errorf("%s: %w (%v)", what, agent.ErrBrowserGone, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Close closes Chromium and stops the Playwright driver.
func (b *Browser) Close() error {
	closeErr := b.browser.Close()
	if err := b.pw.Stop(); err != nil {
		return fmt.Errorf("stop the Playwright driver: %w", err)
	}
	if closeErr != nil {
		return fmt.Errorf("close Chromium: %w", closeErr)
	}
	return nil
}
