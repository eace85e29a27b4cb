package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// actionTimeoutMS bounds each action, so a control that never becomes actionable cannot hang
// the executor.
const actionTimeoutMS = 5000

// Page is one tab in its own browser context. It implements agent.Page and agent.Lifeline:
// it learns at once when it crashes or closes, or its browser or the driver dies, and from
// then on every call on it fails with agent.ErrBrowserGone.
type Page struct {
	b  *Browser
	bc playwright.BrowserContext
	// page is the tab the attempt opened on. Actions, observations, the live view and the
	// video go to the driven tab (see driven), the same one unless an agent's driver turned to
	// another.
	page playwright.Page
	// tabMu guards tab, the driven tab once an agent's driver turned to one (nil for page),
	// and turned, closed when another tab is driven (see following).
	tabMu  sync.Mutex
	tab    playwright.Page
	turned chan struct{}
	opts   agent.PageOptions
	life   *lifeline
	// watch records the page's requests, console messages and page errors.
	watch *watch
	// closing is set once Close has begun: the page's own close is no death.
	closing atomic.Bool

	// guard is the page's origins guard, nil when it may load any origin; blocked is what the
	// guard refused.
	guard   *egress
	blocked *blockList
	// navFailed holds the newest navigation of the main frame that failed (see
	// navigationFailure), for an action waiting on what a click starts.
	navFailed chan navigationFailure
	// film records the page's video, nil when Playwright's recorder does or none is recorded.
	film *film
	// nav follows the main frame's navigations, for an observation to wait for one under way.
	nav navigation
	// release removes what the page's own browser left (see openOwn) once its context is
	// closed, and the browser with it; nil for a page of a shared browser.
	release func()

	mu        sync.Mutex
	masks     []agent.Target
	secrets   []string
	transfers []agent.Transfer
	// inputs is the input recorder, once WatchInputs started it.
	inputs *recorder
	// lastRaw is the sample the latest stored frame, lastShot, shows.
	lastRaw  string
	lastShot storedShot
	// heard is where the last observation left off reading the page's announcements.
	heard heardMark
	// quiet is the latest sample and whether it may be reused (see reusable).
	quiet quietSample
	// latest is the latest sample read, what a sample shows while a dialog stops the page's
	// script (see behindDialog).
	latest string
	// look is what the page last found of a target (see look); aim is the target the pointer
	// was last moved onto, whose look the observations take until the next action (see aimAt).
	look look
	aim  agent.Target
	// dialogs are the JavaScript dialogs kept open for the agent, once KeepDialogs.
	dialogs dialogs
	// onWeb is set while the page has been observed at a web address and not left it for
	// good: a blank page after it is on its way somewhere (see sampleJSON).
	onWeb bool
}

var (
	_ agent.Page         = (*Page)(nil)
	_ agent.Lifeline     = (*Page)(nil)
	_ agent.Measurer     = (*Page)(nil)
	_ agent.Watcher      = (*Page)(nil)
	_ agent.SecretKeeper = (*Page)(nil)
	_ agent.Settler      = (*Page)(nil)
	_ agent.Detacher     = (*Page)(nil)
	_ agent.Sized        = (*Page)(nil)
)

// Viewport is the size every page is opened at, in CSS pixels.
func (p *Page) Viewport() agent.Size {
	return agent.Size{Width: viewport.Width, Height: viewport.Height}
}

func newPage(b *Browser, bc playwright.BrowserContext, pg playwright.Page, opts agent.PageOptions, guard *egress, blocked *blockList, f *film) *Page {
	p := &Page{b: b, bc: bc, page: pg, opts: opts, life: newLifeline(), guard: guard, blocked: blocked,
		navFailed: make(chan navigationFailure, 1), film: f}
	p.watch = newWatch(p.life, opts.Bodies, guard.failure)
	p.life.follow(b.life)
	p.followTab(pg)
	bc.OnPage(p.followTab) // a tab the page (or an outside agent) opens in the attempt's context
	bc.OnClose(func(playwright.BrowserContext) { p.life.cut("the page's browser context closed") })
	if pg.IsClosed() { // it closed before the handlers were in place
		p.life.cut("the page closed")
	}
	if f != nil {
		f.follow(p)
	}
	return p
}

// followTab records the traffic of pg, a tab of the page's context, with the page's own, lists
// what the origins guard refused it, and follows its navigations and its death while it is
// the driven tab.
func (p *Page) followTab(pg playwright.Page) {
	p.watch.follow(pg)
	pg.OnRequestFailed(p.noteNavigationFailure)
	p.nav.follow(pg, p.drives)
	// The driven tab's death is the page's; a tab the agent's driver left or closed is not.
	pg.OnCrash(func(c playwright.Page) {
		if p.drives(c) {
			p.life.cut("the page crashed")
		}
	})
	pg.OnClose(func(c playwright.Page) {
		p.dialogs.forget(c)
		if p.drives(c) {
			p.life.cut("the page closed")
		}
	})
	if p.guard != nil {
		pg.OnRequest(func(r playwright.Request) { p.blocked.ask(r.Method(), r.URL()) })
		pg.OnWebSocket(func(ws playwright.WebSocket) { p.blocked.ask(http.MethodGet, ws.URL()) })
	}
}

// Gone is closed once the page has crashed or closed, or its browser or the driver is gone.
func (p *Page) Gone() <-chan struct{} { return p.life.done }

// GoneErr is agent.ErrBrowserGone with what happened, once Gone is closed; nil before. It
// carries the browser log the death brought to any call on the browser, if one did (see
// agent.BrowserLogOf).
func (p *Page) GoneErr() error {
	if err := p.life.err(); err != nil {
		return p.b.goneError(err, nil)
	}
	return nil
}

// limits are the bounds of a call on the page.
func (p *Page) limits() limits { return limits{life: p.life, timeout: p.b.timeout} }

// Goto loads url and waits for its load event. Only web URLs are loaded (http, https, and
// about: and data: pages, which reach nothing): a file: or browser URL (from a hostile run
// file or a misled model) makes no request for the origins guard to see, and would read this
// machine's files. A load the origins guard failed (an origin it could not reach, a redirect
// outside the task's origins) says why in the guard's words, not the browser's.
func (p *Page) Goto(ctx context.Context, url string) error {
	if !loadable(url) {
		return fmt.Errorf("load %s: a page loads only http, https, about: and data: URLs", clip(url, 200))
	}
	p.actedOn()
	mark := p.guard.mark()
	err := do(ctx, p.limits(), func() error {
		_, err := p.driven().Goto(url, playwright.PageGotoOptions{WaitUntil: playwright.WaitUntilStateLoad})
		return err
	})
	if err != nil && strings.Contains(err.Error(), guardMark) {
		if why, ok := p.guard.firstSince(mark); ok {
			return fmt.Errorf("load %s: %s", url, why)
		}
	}
	return p.fail("load "+url, err)
}

// loadable reports whether raw is an absolute URL Goto loads: http or https with a host, or
// an about: or data: page.
func loadable(raw string) bool {
	u, err := neturl.Parse(raw)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != ""
	case "about", "data":
		return true
	}
	return false
}

// locate is the locator for t: a role with its exact accessible name (or every element with
// the role when the name is empty), an exact label (see byLabel), placeholder, test id or
// text, or CSS; looked for inside t's frames and its container (see scope).
func (p *Page) locate(t agent.Target) (playwright.Locator, error) {
	root := p.scope(t)
	exact := playwright.Bool(true)
	switch kind, text := t.Locator(); kind {
	case "role":
		opts := playwright.LocatorGetByRoleOptions{}
		if text != "" {
			opts.Name, opts.Exact = text, exact
		}
		return root.GetByRole(playwright.AriaRole(t.Role), opts), nil
	case "label":
		return byLabel(root, text), nil
	case "placeholder":
		return root.GetByPlaceholder(text, playwright.LocatorGetByPlaceholderOptions{Exact: exact}), nil
	case "test_id":
		return root.GetByTestId(text), nil
	case "text":
		return root.GetByText(text, playwright.LocatorGetByTextOptions{Exact: exact}), nil
	case "css":
		return root.Locator(text), nil
	}
	return nil, errors.New("the target names no element: give a role, label, placeholder, test id, text or CSS")
}

// scope is where t is looked for: the page's root element, or the root of the innermost of
// its frames (a frame locator for each, outermost first), narrowed to its container. A role
// container matches by a name that contains its text, as a person names a row by one cell.
func (p *Page) scope(t agent.Target) playwright.Locator {
	root := p.driven().Locator(":root")
	if path := t.Frames.List(); len(path) > 0 {
		frames := p.driven().FrameLocator(frameSelector(path[0]))
		for _, f := range path[1:] {
			frames = frames.FrameLocator(frameSelector(f))
		}
		root = frames.Locator(":root")
	}
	switch c := t.Within; {
	case c.Role != "":
		opts := playwright.LocatorGetByRoleOptions{}
		if c.Name != "" {
			opts.Name = c.Name
		}
		return root.GetByRole(playwright.AriaRole(c.Role), opts)
	case c.TestID != "":
		return root.GetByTestId(c.TestID)
	case c.CSS != "":
		return root.Locator(c.CSS)
	}
	return root
}

// frameSelector is the CSS selector of the iframe (or frame) f names.
func frameSelector(f agent.FrameRef) string {
	switch {
	case f.Title != "":
		return ":is(iframe, frame)[title=" + cssString(f.Title) + "]"
	case f.Name != "":
		return ":is(iframe, frame)[name=" + cssString(f.Name) + "]"
	}
	return f.CSS
}

// cssString quotes s as a CSS string.
func cssString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\a `).Replace(s) + `"`
}

// labelledRoles are the roles of HTML's labelable elements (input, select, textarea,
// button, meter, progress, output), whose label can hold their own content.
var labelledRoles = []playwright.AriaRole{"textbox", "searchbox", "spinbutton", "slider", "combobox",
	"listbox", "checkbox", "radio", "switch", "button", "meter", "progressbar", "status"}

// byLabel matches the controls under root whose label reads text, as a person reads it: a
// label for= the control, aria-labelledby, aria-label, or a label wrapping the control.
// Playwright's label text includes what the wrapped control shows (the options of a select
// in <label>Category <select>…</select></label> make it "Category FoodTravel"), so a control
// whose label contains text and whose accessible name, which leaves that content out, is
// text matches too.
func byLabel(root playwright.Locator, text string) playwright.Locator {
	var named playwright.Locator
	for _, r := range labelledRoles {
		l := root.GetByRole(r, playwright.LocatorGetByRoleOptions{Name: text, Exact: playwright.Bool(true)})
		if named == nil {
			named = l
		} else {
			named = named.Or(l)
		}
	}
	return root.GetByLabel(text, playwright.LocatorGetByLabelOptions{Exact: playwright.Bool(true)}).
		Or(root.GetByLabel(text).And(named))
}

// Resolve counts the elements t matches. A target that matches nothing gets the page's
// elements nearest it, in an *agent.MissError.
func (p *Page) Resolve(ctx context.Context, t agent.Target) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	loc, err := p.locate(t)
	if err != nil {
		return err
	}
	n, err := p.count(ctx, t, loc)
	if err != nil {
		return p.fail("find "+t.String(), err)
	}
	switch {
	case n == 0:
		return p.miss(ctx, t)
	case n > 1:
		return fmt.Errorf("%w (%d of them)", agent.ErrAmbiguousTarget, n)
	}
	return nil
}

// Act carries out a on its target: click or submit (a click, or focus and Enter for a
// control a pointer cannot reach), fill, select (by option value, else by label), check,
// uncheck, press (on the target, or the focused element), hover, navigate, wait_for (until
// shown, see waitFor), upload (a file inside the uploads folder) or download (a click, the file saved
// in the downloads folder). It waits for the target up to the action's own timeout, else
// actionTimeoutMS. An agent's driver also drags, resizes, answers a dialog kept open (see
// KeepDialogs) and turns between tabs (see actDriven). An action that sets off a kept dialog
// ends there: the page's script waits on the agent.
func (p *Page) Act(ctx context.Context, a agent.Action) error {
	if a.Kind == agent.ActDialogAccept || a.Kind == agent.ActDialogDismiss {
		p.actedOn()
		return p.answerDialog(ctx, a)
	}
	if d, ok := p.Dialog(); ok {
		return fmt.Errorf("%w: the page's %s dialog (%q) is open: answer it first", agent.ErrRefused, d.Type, d.Message)
	}
	ctx, stop := p.untilDialog(ctx)
	defer stop()
	err := p.act(ctx, a)
	if err != nil && interrupted(ctx) {
		return nil
	}
	return err
}

// act is Act on a page with no dialog open.
func (p *Page) act(ctx context.Context, a agent.Action) error {
	ms := actionTimeoutMS
	if a.TimeoutMS > 0 {
		ms = a.TimeoutMS
	}
	timeout := playwright.Float(float64(ms))
	what := fmt.Sprintf("%s %s", a.Kind, a.Target)
	var seen *look
	if l, fresh := p.recentLook(a.Target); fresh {
		seen = &l
	}
	p.actedOn() // every kind, a driver's own included: the page may change from here
	if driven, err := p.actDriven(ctx, a, timeout); driven {
		return p.fail(what, err)
	}
	if a.Kind == agent.ActVerify || !slices.Contains(agent.ActionKinds, a.Kind) {
		return fmt.Errorf("%q is not a page action: verify waits on the gate, and the page acts on %v", a.Kind, pageActions())
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if a.Kind == agent.ActHover {
		p.aimAt(a.Target)
	}
	if a.Kind == agent.ActNavigate {
		return p.Goto(ctx, a.Value)
	}
	if a.Kind == agent.ActPress && a.Target.IsZero() {
		return p.fail(what, do(ctx, p.limits(), func() error { return p.driven().Keyboard().Press(a.Value) }))
	}
	loc, err := p.locate(a.Target)
	if err != nil {
		return err
	}
	var run func() error
	switch a.Kind {
	case agent.ActUpload:
		return p.upload(ctx, loc, a, timeout)
	case agent.ActDownload:
		return p.download(ctx, loc, a, timeout)
	case agent.ActClick, agent.ActSubmit:
		run = func() error { return p.click(ctx, loc, timeout, seen) }
	case agent.ActFill:
		run = func() error { return loc.Fill(a.Value, playwright.LocatorFillOptions{Timeout: timeout}) }
	case agent.ActSelect:
		run = func() error {
			_, err := loc.SelectOption(playwright.SelectOptionValues{Values: &[]string{a.Value}},
				playwright.LocatorSelectOptionOptions{Timeout: timeout})
			if err != nil && strings.Contains(err.Error(), "did not find some options") {
				_, err = loc.SelectOption(playwright.SelectOptionValues{Labels: &[]string{a.Value}},
					playwright.LocatorSelectOptionOptions{Timeout: timeout})
			}
			return err
		}
	case agent.ActCheck:
		run = func() error { return loc.Check(playwright.LocatorCheckOptions{Timeout: timeout}) }
	case agent.ActUncheck:
		run = func() error { return loc.Uncheck(playwright.LocatorUncheckOptions{Timeout: timeout}) }
	case agent.ActPress:
		run = func() error { return loc.Press(a.Value, playwright.LocatorPressOptions{Timeout: timeout}) }
	case agent.ActHover:
		run = func() error { return loc.Hover(playwright.LocatorHoverOptions{Timeout: timeout}) }
	case agent.ActWaitFor:
		return p.waitFor(ctx, loc, a.Target, ms)
	}
	return p.fail(what, do(ctx, p.actLimits(ms), run))
}

// actLimits are the page's limits for an action that may wait ms for its target: the call
// is given that long, and a margin, before the browser is taken to have stopped answering.
func (p *Page) actLimits(ms int) limits {
	lim := p.limits()
	lim.timeout = max(lim.timeout, time.Duration(ms)*time.Millisecond+callTimeout)
	return lim
}

// waitFor waits up to ms for t, which loc names, to be shown. When it is not, it says what it
// last saw: the elements nearest t (an *agent.MissError), or how many match but are hidden.
func (p *Page) waitFor(ctx context.Context, loc playwright.Locator, t agent.Target, ms int) error {
	err := do(ctx, p.actLimits(ms), func() error {
		return loc.WaitFor(playwright.LocatorWaitForOptions{State: playwright.WaitForSelectorStateVisible,
			Timeout: playwright.Float(float64(ms))})
	})
	if !errors.Is(err, playwright.ErrTimeout) {
		return p.fail("wait for "+t.String(), err)
	}
	waited := fmt.Sprintf("waited %d ms for %s to be shown", ms, t)
	n, cerr := call(ctx, p.limits(), func() (int, error) { return loc.Count() })
	switch {
	case cerr != nil:
		return p.fail(waited, cerr)
	case n == 0:
		return fmt.Errorf("%s: %w", waited, p.miss(ctx, t))
	}
	return fmt.Errorf("%s: it matches %d hidden elements", waited, n)
}

// click clicks the element loc names, or, when a pointer cannot reach it (off-screen, or
// clipped to a pixel), presses it from the keyboard: a mouse click there would land on
// empty space and could still report success. A control not shown yet (an alert's Retry)
// is no sign of either: the click waits for it as Playwright's always does. A fresh look at
// the element (see look), when there is one, already says whether a pointer can reach it.
func (p *Page) click(ctx context.Context, loc playwright.Locator, timeout *float64, seen *look) error {
	var hidden bool
	if seen != nil {
		hidden = seen.unreachable
	} else {
		var err error
		if hidden, err = p.unreachable(ctx, loc); err != nil {
			return err
		}
	}
	if hidden {
		return press(loc, timeout)
	}
	return loc.Click(playwright.LocatorClickOptions{Timeout: timeout})
}

// pageActions are the action kinds a page carries out.
func pageActions() []agent.ActionKind {
	return slices.DeleteFunc(slices.Clone(agent.ActionKinds), func(k agent.ActionKind) bool { return k == agent.ActVerify })
}

// Mask hides every element t matches from the screenshots taken from now on.
func (p *Page) Mask(t agent.Target) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.masks = append(p.masks, t)
	p.lastShot = storedShot{} // the next frame must be taken with the mask
}

// maskLocators are the locators of the masked targets.
func (p *Page) maskLocators() []playwright.Locator {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []playwright.Locator
	for _, t := range p.masks {
		if loc, err := p.locate(t); err == nil {
			out = append(out, loc)
		}
	}
	return out
}

// Blocked returns the requests refused since the last call.
func (p *Page) Blocked() []string { return p.blocked.take() }

// Traffic returns the requests, console messages and page errors recorded since the last
// call, times counted from epoch; final first waits, a bounded time, for the requests still
// in flight.
func (p *Page) Traffic(epoch time.Time, final bool) agent.Traffic {
	return p.watch.Traffic(epoch, final)
}

// TrafficUntil is Traffic for what came before until (see agent.TimedWatcher).
func (p *Page) TrafficUntil(epoch, until time.Time) agent.Traffic {
	return p.watch.TrafficUntil(epoch, until)
}

// Stop cuts the page off the network and then aborts its in-flight requests and loads, as
// the browser's Stop button does (window.stop()). Going offline first matters: work the
// page's scripts still have queued (a save waiting behind other requests) would otherwise
// leave after the stop. The page stays open and observable.
func (p *Page) Stop(ctx context.Context) error {
	err := do(ctx, p.limits(), func() error {
		// Both messages leave at once, offline first, so that the stop costs one round trip
		// to the browser rather than two: a save that is about to commit has little time.
		offline := make(chan error, 1)
		go func() { offline <- p.bc.SetOffline(true) }()
		_, err := p.driven().Evaluate("() => window.stop()")
		return errors.Join(<-offline, err)
	})
	return p.fail("stop the page", err)
}

// Close closes the page and finishes what it recorded (see Detach), and returns what was
// recorded, relative to MediaDir.
func (p *Page) Close() (agent.Recording, error) { return p.Detach()() }

// Detach cuts the page off the network at once, so that nothing it still has in flight can
// land later (its origins guard closed, or, without one, the page offline and stopped, as
// Stop does), ends its video there, and returns what closes it and finishes the recording:
// the trace saved, the page and its context closed, the video encoded from its frames (see
// film) and named. The context is closed even when saving the trace fails, and both errors
// are reported. A page that crashed or closed itself still has its
// video finished; a dead browser has nothing left to finish. Each part is bounded by
// closeTimeout, and the browser's death ends them at once. Calls still running on the page
// fail with agent.ErrBrowserGone.
func (p *Page) Detach() func() (agent.Recording, error) {
	if p.closing.Swap(true) {
		return func() (agent.Recording, error) { return agent.Recording{}, nil }
	}
	if p.guard != nil {
		closeGuard(p.guard) // every connection of the page cut, and no new one can be made
	} else if p.b.life.err() == nil && p.life.err() == nil {
		_ = p.Stop(context.Background())
	}
	p.life.cut("the page was closed")
	if p.film != nil {
		p.film.end()
	}
	if p.b.life.err() != nil { // a dead browser has nothing left to finish
		p.dropVideo()
		p.released() // a browser of the page's own that died left its profile
		return func() (agent.Recording, error) { return agent.Recording{}, nil }
	}
	return func() (agent.Recording, error) { return p.finish(limits{life: p.b.life, timeout: closeTimeout}) }
}

// finish saves the trace, closes the page's context and encodes or fetches the video, for
// Detach. A video that cannot be finished leaves no file behind.
func (p *Page) finish(lim limits) (agent.Recording, error) {
	var rec agent.Recording
	var traceErr error
	if recordsTrace(p.opts) {
		name := mediaName(p.opts, ".trace.zip")
		err := do(context.Background(), lim, func() error { return p.bc.Tracing().Stop(filepath.Join(p.opts.MediaDir, name)) })
		if err == nil {
			rec.Trace = name
		} else {
			traceErr = p.b.fail("save the Playwright trace", err)
		}
	}
	if p.film != nil {
		p.film.halt(lim)
	}
	video := p.page.Video()
	err := do(context.Background(), lim, func() error { return p.bc.Close() })
	p.released()
	if err != nil {
		p.dropVideo()
		return rec, errors.Join(traceErr, p.b.fail("close the page's context", err))
	}
	if traceErr != nil || !recordsVideo(p.opts) {
		p.dropVideo()
		return rec, traceErr
	}
	name := mediaName(p.opts, ".webm")
	if p.film != nil {
		if err := p.film.develop(context.Background(), filepath.Join(p.opts.MediaDir, name)); err != nil {
			return rec, err
		}
		rec.Video = name
		return rec, nil
	}
	if p.b.remote { // its file lies on the browser's machine
		err := do(context.Background(), lim, func() error { return video.SaveAs(filepath.Join(p.opts.MediaDir, name)) })
		if err != nil {
			return rec, p.b.fail("fetch the recorded video from the browser server", err)
		}
		rec.Video = name
		return rec, nil
	}
	recorded, err := call(context.Background(), lim, video.Path)
	if err != nil {
		return rec, p.b.fail("find the recorded video", err)
	}
	if err := os.Rename(recorded, filepath.Join(p.opts.MediaDir, name)); err != nil {
		return rec, fmt.Errorf("name the recorded video: %w", err)
	}
	rec.Video = name
	return rec, nil
}

// discard closes a page nobody will use, in the background of whoever abandoned it, and
// deletes the video it recorded.
func (p *Page) discard() {
	p.closing.Store(true)
	p.life.cut("the page was closed")
	_ = do(context.Background(), limits{life: p.b.life, timeout: closeTimeout}, func() error { return p.bc.Close() })
	p.released()
	closeGuard(p.guard)
	p.dropVideo()
}

// released runs the page's release, if it has one, once its context is closed.
func (p *Page) released() {
	if p.release != nil {
		p.release()
	}
}

// dropVideo deletes the file the page's video was being recorded into, which Playwright
// names when the page opens: a page nobody uses has no video to keep, and one whose browser
// died has only a truncated file, which would otherwise lie in the media folder under a
// random name. A remote browser's file is deleted on its machine. A filmed page's frames are
// deleted.
func (p *Page) dropVideo() {
	if !recordsVideo(p.opts) {
		return
	}
	if p.film != nil {
		p.film.drop()
		return
	}
	video := p.page.Video()
	lim := limits{timeout: time.Second} // the path is known from the start: no waiting on the browser
	if p.b.remote {
		_ = do(context.Background(), limits{life: p.b.life, timeout: closeTimeout}, video.Delete)
		return
	}
	if path, err := call(context.Background(), lim, video.Path); err == nil {
		_ = os.Remove(path)
	}
}

// fail names what failed and keeps Playwright's appended logs out of the message. A call
// the page's death ended, or that failed as the page, its browser or the driver died, is
// agent.ErrBrowserGone with the death's cause: the browser's own, when the page went with it.
func (p *Page) fail(what string, err error) error {
	if err == nil {
		return nil
	}
	gone := goneWith(p.life, err)
	if gone == nil {
		if isContextErr(err) {
			return fmt.Errorf("%s: %w", what, err)
		}
		return shorten(p.b.log, what, err)
	}
	if !p.closing.Load() { // the page went under the executor: say so if its browser went too
		select {
		case <-p.b.life.done:
			gone = p.b.life.err()
		case <-time.After(deathGrace):
		}
	}
	return p.b.goneError(fmt.Errorf("%s: %w", what, gone), err)
}
