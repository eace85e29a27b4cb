package browser

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// ownLaunch is how a browser that gives each page a Chromium of its own launches it: the
// executable, headless or not, the flags and the delay of every operation.
type ownLaunch struct {
	exe      string
	headless bool
	args     []string
	slowMo   time.Duration
}

// ownArgs are the flags of a page's own Chromium beyond chromiumArgs: an agent that brings
// its own extension (Stagehand) loads it over DevTools, which Chromium allows only with
// extension debugging on; Playwright's --disable-extensions is dropped for the same reason.
var ownArgs = []string{"--enable-unsafe-extension-debugging"}

// openOwn opens the page of an attempt an outside agent drives in a Chromium of its own (see
// Options.DevTools): a fresh profile, so attempts share nothing; the attempt's page is the
// first page of the browser's default context, which an agent that takes the first page
// target (browser-use) or acts through its own extension (Stagehand) acts in. The origins
// guard is the browser-wide proxy, so every page the agent opens in the default context is
// behind it; Playwright follows every page of that context, so each is recorded. The agent
// reaches the browser only through a front (see front) that refuses what would leave both: a
// context of its own, an extension that may set the proxy. Closing the page closes that
// browser and removes its profile.
func (b *Browser) openOwn(opts agent.PageOptions, ffmpeg string) (*Page, error) {
	if opts.StorageState != "" {
		return nil, fmt.Errorf("a session's storage state (%s) cannot be loaded into an outside agent's own browser yet", opts.StorageState)
	}
	blocked := &blockList{}
	guard, err := b.startGuard(opts, blocked)
	if err != nil {
		return nil, err
	}
	profile, err := os.MkdirTemp("", "observatory-profile-")
	if err != nil {
		closeGuard(guard)
		return nil, fmt.Errorf("make the browser's profile folder: %w", err)
	}
	port, err := freePort()
	if err != nil {
		closeGuard(guard)
		_ = os.RemoveAll(profile)
		return nil, fmt.Errorf("choose a port for the DevTools endpoint: %w", err)
	}
	devtools := fmt.Sprintf("127.0.0.1:%d", port)
	fr, err := startFront(devtools)
	if err != nil {
		closeGuard(guard)
		_ = os.RemoveAll(profile)
		return nil, err
	}
	release := func() {
		fr.Close()
		_ = os.RemoveAll(profile)
	}
	size := viewport
	launch := playwright.BrowserTypeLaunchPersistentContextOptions{
		ExecutablePath:    playwright.String(b.own.exe),
		Headless:          playwright.Bool(b.own.headless),
		SlowMo:            playwright.Float(float64(b.own.slowMo.Milliseconds())),
		Args:              append(append(append([]string(nil), b.own.args...), ownArgs...), "--remote-debugging-port="+fmt.Sprint(port)),
		IgnoreDefaultArgs: []string{"--disable-extensions"},
		Viewport:          &size,
	}
	if opts.PixelRatio > 1 {
		launch.DeviceScaleFactor = playwright.Float(opts.PixelRatio)
	}
	if recordsVideo(opts) && ffmpeg == "" {
		launch.RecordVideo = &playwright.RecordVideo{Dir: playwright.String(opts.MediaDir), Size: &size}
	}
	if guard != nil {
		// Playwright adds <-loopback> to the bypass list: the lab's 127.0.0.1 goes through the
		// guard too. The guard lets the front through, for an agent's extension (Stagehand's
		// opens its own DevTools connection); a page cannot use it (see fromPage).
		guard.through = fr.ln.Addr().String()
		launch.Proxy = &playwright.Proxy{Server: guard.Server()}
	}
	bc, err := b.pw.Chromium.LaunchPersistentContext(profile, launch)
	if err != nil {
		closeGuard(guard)
		release()
		return nil, fmt.Errorf("launch the attempt's own Chromium: %w", err)
	}
	own := &Browser{pw: b.pw, life: newLifeline(), log: b.log, timeout: b.timeout, guardHost: b.guardHost,
		reading: b.reading, devtools: fr.URL()}
	own.life.follow(b.life)
	var p *Page
	var mu sync.Mutex // p is set once the page exists; a close before that is a failed open
	bc.OnClose(func(playwright.BrowserContext) {
		mu.Lock()
		if p == nil || !p.closing.Load() { // closed under the page: the browser's death
			own.life.cut("the attempt's browser closed")
		}
		mu.Unlock()
		release()
	})
	pages := bc.Pages()
	if len(pages) == 0 {
		_ = bc.Close()
		closeGuard(guard)
		return nil, fmt.Errorf("the attempt's own Chromium opened no page")
	}
	pg, f, err := own.prepare(bc, pages[0], opts, ffmpeg)
	if err != nil {
		_ = bc.Close()
		closeGuard(guard)
		return nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	p = newPage(own, bc, pg, opts, guard, blocked, f)
	// Closing the context waits for the browser to exit; its close event may come before the
	// browser has written its last files into the profile.
	p.release = release
	return p, nil
}
