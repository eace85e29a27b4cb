package browser

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
	"observatory/backend/tlsca"
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

// chromiumArgs keep Chromium quiet and deterministic: no background traffic, updates or GPU;
// and WebRTC sends nothing past the proxy the pages' origins guards are (see egress).
var chromiumArgs = []string{
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-gpu",
	"--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
}

// authorityLifetime is how long the certificates the pages' origins guards show the browser
// are valid: longer than a run, which a launched browser lives for.
const authorityLifetime = 7 * 24 * time.Hour

// viewport is the page and video size.
var viewport = playwright.Size{Width: 1000, Height: 700}

// Options choose how Chromium is launched.
type Options struct {
	Headless bool
	// ExecutablePath is the browser to run; empty chooses one (see Locator.Choose).
	ExecutablePath string
	// SlowMo delays every Playwright operation, for watching a run.
	SlowMo time.Duration
	// DevTools gives each page a Chromium of its own, with a DevTools endpoint on 127.0.0.1
	// that an outside agent process drives it through (see agent.Handover and ownBrowser):
	// nothing is launched until a page is opened.
	DevTools bool
	// Log receives what Playwright appends to its errors (Chromium's launch log, the call
	// log), which errors themselves leave out; nil writes it to standard error.
	Log io.Writer
	// OriginRoots are the roots the pages' origins guards verify an https origin's
	// certificate against (see intercept); nil is the system's. Tests name their servers'.
	OriginRoots *x509.CertPool
}

// Browser is a running Chromium driven through Playwright. It implements agent.Browser and
// agent.Lifeline: it learns at once when Chromium or the driver dies, and from then on every
// call on it or its pages fails with agent.ErrBrowserGone.
type Browser struct {
	pw      *playwright.Playwright
	browser playwright.Browser
	// remote is set for a browser server on another machine, whose files are not ours;
	// endpoint is the address it was reached at.
	remote   bool
	endpoint string
	// devtools is the browser's DevTools endpoint, http://127.0.0.1:PORT; empty for none.
	devtools string
	// own is how each page's own Chromium is launched, for a browser that launches one per
	// page (see ownBrowser); nil for one that opens its pages in a browser it shares.
	own *ownLaunch
	// guardHost is the address the browser reaches this process at, where each page's origins
	// guard listens (see egress).
	guardHost string
	// reading lets the guards read inside the TLS of https origins: set for a browser
	// launched here, told to trust its authority; nil for one reached elsewhere, which cannot
	// be told, so its guards tunnel TLS unread.
	reading *tlsReading
	life    *lifeline
	log     io.Writer
	// timeout bounds each call; tests shorten it.
	timeout time.Duration
	// closeOnce makes Close happen once, closeErr its result.
	closeOnce sync.Once
	closeErr  error
}

var (
	_ agent.Browser  = (*Browser)(nil)
	_ agent.Lifeline = (*Browser)(nil)
)

// Launch starts the Playwright driver and Chromium. It never downloads a browser.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := UseSystemNode(); err != nil {
		return nil, err
	}
	chosen, err := Locator{}.Choose(opts.ExecutablePath)
	if err != nil {
		return nil, err
	}
	if opts.Headless && !opts.DevTools { // the headless shell runs no extension, which an agent may bring
		chosen = chosen.Headless()
	}
	exe := chosen.Path
	if err := CheckDriver(); err != nil {
		return nil, err
	}
	pw, err := playwright.Run(&playwright.RunOptions{Verbose: false})
	if err != nil {
		return nil, driverStartError(err)
	}
	b := newBrowser(pw, opts.Log)
	authority, err := tlsca.New(nil, authorityLifetime)
	if err != nil {
		_ = stopDriver(pw)
		return nil, err
	}
	b.reading = &tlsReading{authority: authority, roots: opts.OriginRoots}
	// Chromium accepts a chain that carries a certificate of this key, and no other it
	// would not accept anyway: the guards' (see intercept).
	args := append(launchArgs(), "--ignore-certificate-errors-spki-list="+authority.SPKIPin())
	if opts.DevTools {
		b.own = &ownLaunch{exe: exe, headless: opts.Headless, args: args, slowMo: opts.SlowMo}
		return b, nil
	}
	launch := playwright.BrowserTypeLaunchOptions{
		Headless: playwright.Bool(opts.Headless),
		Args:     args,
		SlowMo:   playwright.Float(float64(opts.SlowMo.Milliseconds())),
	}
	launch.ExecutablePath = playwright.String(exe)
	// Stopping the driver closes a Chromium whose launch was abandoned.
	br, err := call(ctx, b.limits(), func() (playwright.Browser, error) { return pw.Chromium.Launch(launch) })
	if err != nil {
		_ = stopDriver(pw)
		switch {
		case ctx.Err() != nil:
			return nil, err
		case strings.Contains(err.Error(), "Executable doesn't exist"):
			return nil, fmt.Errorf("%w (%v)", ErrNoChromium, shorten(b.log, "launch Chromium", err))
		}
		return nil, shorten(b.log, "launch Chromium "+exe, err)
	}
	b.attach(br, "Chromium exited")
	return b, nil
}

// driverStartError says why the driver, which CheckDriver found on disk, did not start: one
// of another version is ErrNoDriver, for this build; one that died starting (killed, out of
// memory) says how it ended, since installing would not help.
func driverStartError(err error) error {
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return fmt.Errorf("the Playwright driver exited as it started: %s", exit)
	case strings.Contains(err.Error(), "install the driver"):
		return fmt.Errorf("%w (%v)", ErrNoDriver, err)
	}
	return fmt.Errorf("the Playwright driver did not start: %v", err)
}

// newBrowser is the Browser of the driver pw, before it has a browser: its lifeline is cut
// the moment the driver exits. Playwright's error detail goes to log, or standard error.
func newBrowser(pw *playwright.Playwright, log io.Writer) *Browser {
	if log == nil {
		log = os.Stderr
	}
	b := &Browser{pw: pw, life: newLifeline(), log: log, timeout: callTimeout, guardHost: localGuardHost}
	watchExit(pw.Pid(), func(how string) {
		if how != "" {
			how = ": " + how
		}
		b.life.cut("the Playwright driver exited" + how)
	})
	return b
}

// attach makes br the browser of b; its disconnection cuts b's lifeline, saying gone.
func (b *Browser) attach(br playwright.Browser, gone string) {
	b.browser = br
	br.OnDisconnected(func(playwright.Browser) { b.life.cut(gone) })
	if !br.IsConnected() { // it went before the handler was in place
		b.life.cut(gone)
	}
}

// CheckDriver reports ErrNoDriver, saying what is missing, when the driver's CLI or a Node.js
// to run it (the system's, or one beside the driver) is not on disk.
func CheckDriver() error {
	if err := checkDriverCLI(); err != nil {
		return err
	}
	// Only read the environment here: the window calls this while it runs (see UseSystemNode).
	if os.Getenv("PLAYWRIGHT_NODEJS_PATH") != "" {
		return nil
	}
	if _, err := exec.LookPath("node"); err == nil {
		return nil
	}
	node, err := bundledNode()
	if err != nil {
		return err
	}
	if _, err := os.Stat(node); err != nil {
		return fmt.Errorf("%w: no Node.js to run it (none on PATH, none at %s)", ErrNoDriver, node)
	}
	return nil
}

// checkDriverCLI reports ErrNoDriver when the driver's CLI is not on disk.
func checkDriverCLI() error {
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

// freePort is a TCP port on 127.0.0.1 that nothing listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Playwright returns the underlying Playwright browser, for code that needs Playwright's own
// API beyond agent.Page: end-to-end tests of the UI, and the bare-Playwright benchmark
// baseline. It shares this browser's launch (executable, flags) and lifetime.
func (b *Browser) Playwright() playwright.Browser { return b.browser }

// NewPage opens a page in a fresh browser context, so attempts share no cookies, storage or
// cache. With opts.Video it records the page's video into opts.MediaDir (filmed from the
// screencast in Chromium, by Playwright's recorder elsewhere; recording video needs ffmpeg,
// which is looked for before the page opens), and with opts.Trace it
// records a Playwright trace there. It returns when ctx ends, the call's deadline passes or
// the browser dies, whichever comes first; a page that opens after that is closed in the
// background and its recording deleted.
func (b *Browser) NewPage(ctx context.Context, opts agent.PageOptions) (agent.Page, error) {
	if err := b.life.err(); err != nil {
		return nil, fmt.Errorf("open a page: %w", err)
	}
	if opts.MediaDir != "" && opts.Files() {
		if err := os.MkdirAll(opts.MediaDir, 0o755); err != nil {
			return nil, fmt.Errorf("create the media folder: %w", err)
		}
	}
	ffmpeg := "" // the encoder of a filmed page's video
	if b.films(opts) {
		var err error
		if ffmpeg, err = ffmpegPath(); err != nil {
			return nil, err
		}
	}
	open := b.open
	if b.own != nil {
		open = b.openOwn
	}
	p, err := callOwned(ctx, b.limits(), func() (*Page, error) { return open(opts, ffmpeg) }, (*Page).discard)
	if err != nil {
		return nil, b.fail("open a page", err)
	}
	return p, nil
}

// open opens a browser context and a page in it, as NewPage asks, behind an origins guard
// when opts names origins, filming it for ffmpeg to encode when NewPage found one; when any
// part fails it closes what it opened.
func (b *Browser) open(opts agent.PageOptions, ffmpeg string) (*Page, error) {
	size := viewport
	contextOpts := playwright.BrowserNewContextOptions{Viewport: &size}
	if opts.PixelRatio > 1 {
		contextOpts.DeviceScaleFactor = playwright.Float(opts.PixelRatio)
	}
	if opts.StorageState != "" {
		contextOpts.StorageStatePath = playwright.String(opts.StorageState)
	}
	if recordsVideo(opts) && ffmpeg == "" { // no DevTools session to film with: Playwright's recorder
		contextOpts.RecordVideo = &playwright.RecordVideo{Dir: playwright.String(opts.MediaDir), Size: &size}
	}
	blocked := &blockList{}
	guard, err := b.startGuard(opts, blocked)
	if err != nil {
		return nil, err
	}
	if guard != nil {
		contextOpts.Proxy = &playwright.Proxy{Server: guard.Server()}
	}
	bc, err := b.browser.NewContext(contextOpts)
	if err != nil {
		closeGuard(guard)
		return nil, fmt.Errorf("open a browser context: %w", err)
	}
	pg, f, err := b.prepare(bc, nil, opts, ffmpeg)
	if err != nil {
		_ = bc.Close()
		closeGuard(guard)
		return nil, err
	}
	return newPage(b, bc, pg, opts, guard, blocked, f), nil
}

// startGuard starts the origins guard of a page with opts, which refuses through blocked;
// nil when opts names no origins.
func (b *Browser) startGuard(opts agent.PageOptions, blocked *blockList) (*egress, error) {
	if len(opts.Origins) == 0 {
		return nil, nil
	}
	guard, err := startEgress(b.guardHost, opts.Origins, opts.LinkLocal, b.reading, blocked.add)
	if err != nil {
		return nil, fmt.Errorf("start the page's origins guard on %s: %w", b.guardHost, err)
	}
	return guard, nil
}

// prepare readies the browser context bc of a new page: it listens for the page's
// announcements and changes, starts the Playwright trace when opts asks, opens the page
// (first, when the context has one already) and films it for ffmpeg when NewPage found one.
// The caller closes bc when it fails.
func (b *Browser) prepare(bc playwright.BrowserContext, first playwright.Page, opts agent.PageOptions, ffmpeg string) (playwright.Page, *film, error) {
	if err := bc.AddInitScript(playwright.Script{Content: playwright.String(announceScript(opts.Notices) + changesJS)}); err != nil {
		return nil, nil, fmt.Errorf("listen for the page's announcements and changes: %w", err)
	}
	if recordsTrace(opts) {
		err := bc.Tracing().Start(playwright.TracingStartOptions{Screenshots: playwright.Bool(true), Snapshots: playwright.Bool(true)})
		if err != nil {
			return nil, nil, fmt.Errorf("start the Playwright trace: %w", err)
		}
	}
	pg := first
	if pg == nil {
		var err error
		if pg, err = bc.NewPage(); err != nil {
			return nil, nil, err
		}
	}
	if ffmpeg == "" {
		return pg, nil, nil
	}
	f, err := startFilm(context.Background(), bc, pg, viewport, ffmpeg, b.limits())
	return pg, f, err
}

// localGuardHost is where a browser on this machine reaches the pages' origins guards.
const localGuardHost = "127.0.0.1"

// closeGuard closes a page's origins guard, if it has one.
func closeGuard(g *egress) {
	if g != nil {
		_ = g.Close()
	}
}

// recordsVideo reports whether a page with opts records video: never at lean evidence.
func recordsVideo(opts agent.PageOptions) bool {
	return opts.Video && opts.MediaDir != "" && !opts.Lean()
}

// films reports whether a page with opts has its video filmed from the screencast (see
// film): every page recording video in a browser that gives DevTools sessions.
func (b *Browser) films(opts agent.PageOptions) bool { return recordsVideo(opts) && b.Streams() }

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

// Gone is closed once Chromium or the Playwright driver has exited, or the browser was closed.
func (b *Browser) Gone() <-chan struct{} { return b.life.done }

// GoneErr is agent.ErrBrowserGone with what happened, once Gone is closed; nil before. It
// carries the browser log the death brought to any call on the browser, if one did (see
// agent.BrowserLogOf).
func (b *Browser) GoneErr() error {
	if err := b.life.err(); err != nil {
		return b.goneError(err, nil)
	}
	return nil
}

// limits are the bounds of a call on the browser.
func (b *Browser) limits() limits { return limits{life: b.life, timeout: b.timeout} }

// fail names what failed and keeps Playwright's appended logs out of the message. It marks
// the error agent.ErrBrowserGone when the browser is gone or went with it (see goneWith).
func (b *Browser) fail(what string, err error) error {
	if gone := goneWith(b.life, err); gone != nil {
		return b.goneError(fmt.Errorf("%s: %w", what, gone), err)
	}
	if isContextErr(err) {
		return fmt.Errorf("%s: %w", what, err)
	}
	return shorten(b.log, what, err)
}

// goneError is msg, the one-line error of a call the browser's death ended, carrying the
// browser log Playwright appended to err, the call's own error, or else the first one the
// death brought to any call on the browser (see lifeline.note). The first such log is also
// written to the browser's log stream: usually Chromium's own log of its last moments.
func (b *Browser) goneError(msg, err error) error {
	detail := detailOf(err)
	if b.life.note(detail) {
		fmt.Fprintf(b.log, "observatory: %v\n%s\n", msg, detail)
	}
	if detail == "" {
		detail = b.life.noted()
	}
	if detail == "" {
		return msg
	}
	return &loggedError{err: msg, detail: detail}
}

// Close closes Chromium and stops the Playwright driver, each within closeTimeout; a driver
// that does not stop is killed. Calls still running on the browser fail at once with
// agent.ErrBrowserGone. Closing a browser that is already gone reports no error for what
// its death left undone. Only the first call closes; any other waits for it and returns its
// result.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		died := b.life.err() != nil
		b.life.cut("the browser was closed")
		var closeErr error
		if b.browser != nil { // one that launches a browser per page has none of its own
			closeErr = do(context.Background(), limits{timeout: closeTimeout}, func() error { return b.browser.Close() })
		}
		stopErr := stopDriver(b.pw)
		switch {
		case died:
		case stopErr != nil:
			b.closeErr = fmt.Errorf("stop the Playwright driver: %w", stopErr)
		case closeErr != nil:
			b.closeErr = shorten(b.log, "close Chromium", closeErr)
		}
	})
	return b.closeErr
}

// stopDriver stops the Playwright driver, which closes its input; the driver then closes its
// browsers and exits. One still running after closeTimeout is killed.
func stopDriver(pw *playwright.Playwright) error {
	stopped := make(chan error, 1)
	go func() { stopped <- pw.Stop() }()
	select {
	case err := <-stopped:
		return err
	case <-time.After(closeTimeout):
	}
	if p, err := os.FindProcess(pw.Pid()); err == nil {
		_ = p.Kill()
	}
	<-stopped
	return fmt.Errorf("it did not exit within %s and was killed", closeTimeout)
}
