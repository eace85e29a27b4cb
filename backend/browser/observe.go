package browser

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"image/jpeg"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// observeSrc samples the page in the browser and returns agent.Sample as JSON; observeJS is
// it with the helpers.
//
//go:embed observe.js
var observeSrc string

var observeJS = pageScript(observeSrc)

// announceJS remembers, in every document, what the page announced, and what the task's
// named notice places showed, for observe.js to read what came and went between two
// observations. It is a function of the places; see announceScript.
//
//go:embed announce.js
var announceJS string

// announceScript is announceJS called with the task's named notice places, as an init script
// runs it in every document.
func announceScript(places []agent.NoticePlace) string {
	arg, _ := json.Marshal(places) // a slice of plain strings always encodes
	if places == nil {
		arg = []byte("[]")
	}
	return "(" + announceJS + ")(" + string(arg) + ");"
}

// changesJS counts, in every document, what can change what observe.js reads, for an
// observation to tell that nothing has before it samples (see reusable).
//
//go:embed changes.js
var changesJS string

// screenshotQuality is the JPEG quality of stored frames.
const screenshotQuality = 70

// frameTries bounds how often Observe retakes a screenshot of a page that keeps changing.
const frameTries = 3

// Observe samples the page in one round trip. With screenshots on it also stores a frame,
// bracketed by two samples: a screenshot waits for the page's next painted frame (100 ms or
// more on a busy machine), so a save can land while it is taken. The frame is kept only when
// the samples before and after it are identical, so picture and sample show the same page;
// a page still changing after frameTries gets the latest pair. A page whose sample is the
// same as at the last frame gets that frame again without a new screenshot: recording costs
// a frame only when the page changed. A page that provably has not changed since the last
// sample (see reusable) gets that sample again, told in the observation's round trip. A
// cookie the task's authority reads that the page's script cannot see (HttpOnly) is read from
// the browser context.
func (p *Page) Observe(ctx context.Context) (agent.Sample, error) {
	return p.sampled(ctx, p.KeepsFrames())
}

// ObserveFramed is Observe with the page's frame stored even at lean evidence (agent.Framer).
func (p *Page) ObserveFramed(ctx context.Context) (agent.Sample, error) { return p.sampled(ctx, true) }

// KeepsFrames reports whether every Observe stores its frame: unless the page records at lean
// evidence, where only ObserveFramed does (agent.Framer).
func (p *Page) KeepsFrames() bool { return !p.opts.Lean() }

// sampled is Observe, storing the page's frame when framed.
func (p *Page) sampled(ctx context.Context, framed bool) (agent.Sample, error) {
	p.forgetLook() // a box recorded with the sample after this one is measured after it
	// While a dialog is open, the page's script is stopped until the agent answers it.
	if d, ok := p.Dialog(); ok {
		s, err := p.behindDialog(d)
		s.Tab = p.tabIndex()
		return s, err
	}
	s, err := p.observe(ctx, framed)
	if err != nil {
		return s, err
	}
	s.Tab = p.tabIndex()
	return s, p.readHiddenCookies(ctx, &s)
}

// observe samples the page and, when framed with screenshots or DOM snapshots on, stores its
// frame: the screenshot and the DOM's static copy, both taken between the same two identical
// reads.
func (p *Page) observe(ctx context.Context, framed bool) (agent.Sample, error) {
	raw, err := p.sampleJSON(ctx)
	if err != nil || !framed || !(p.opts.Screenshots || p.opts.DOM) || p.opts.MediaDir == "" {
		return p.decode(raw, err)
	}
	if shot, ok := p.unchanged(raw); ok {
		s, err := p.decode(raw, nil)
		shot.fill(&s)
		return s, err
	}
	var img []byte
	var dom domCopy
	for try := 1; ; try++ {
		if p.opts.Screenshots {
			if img, err = p.capture(ctx); err != nil {
				return agent.Sample{}, err
			}
		}
		if p.opts.DOM {
			if dom, err = p.copyDOM(ctx); err != nil {
				return agent.Sample{}, err
			}
		}
		after, err := p.sampleJSON(ctx)
		if err != nil {
			return agent.Sample{}, err
		}
		stable := after == raw
		raw = after
		if stable || try == frameTries {
			break
		}
	}
	s, err := p.decode(raw, nil)
	if err != nil {
		return agent.Sample{}, err
	}
	var shot storedShot
	if img != nil {
		shot.size = imageSize(img)
		if shot.name, err = p.store(img, ".jpg"); err != nil {
			return s, err
		}
	}
	if p.opts.DOM {
		if shot.dom, shot.domSkipped, err = p.storeDOM(dom); err != nil {
			return s, err
		}
	}
	p.remember(raw, shot)
	shot.fill(&s)
	return s, nil
}

// storedShot is a stored frame: its screenshot's name in the media folder and its size in
// image pixels, and its DOM snapshot's name or why none was kept.
type storedShot struct {
	name            string
	size            *agent.Size
	dom, domSkipped string
}

// fill records the frame in s.
func (f storedShot) fill(s *agent.Sample) {
	s.Screenshot, s.ScreenshotSize, s.DOM, s.DOMSkipped = f.name, f.size, f.dom, f.domSkipped
}

// imageSize is a JPEG's size in image pixels, nil when it cannot be read.
func imageSize(img []byte) *agent.Size {
	c, err := jpeg.DecodeConfig(bytes.NewReader(img))
	if err != nil {
		return nil
	}
	return &agent.Size{Width: c.Width, Height: c.Height}
}

// unchanged returns the last frame when raw is the sample it was taken with.
func (p *Page) unchanged(raw string) (storedShot, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastShot, p.lastShot != (storedShot{}) && raw == p.lastRaw
}

// remember keeps the latest frame and the sample it shows.
func (p *Page) remember(raw string, shot storedShot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastRaw, p.lastShot = raw, shot
}

// loadTries bounds how often an observation starts again because the page was not ready:
// navigated under it, or still parsing its head.
const loadTries = 4

// sampleLoaded runs the observation script and returns the sample as JSON text. A page that
// provably has not changed since the last sample (see reusable) gets that sample again, told
// by the same script in the same round trip. A page that is still loading is normal, not a
// failure: a navigation under way is waited for (one whose request was sent, see navigation,
// or a document a submit or link is leaving before its request shows), a navigation that
// replaces the document while the script runs (a click's page load, a failed load's error
// page) is waited out, and so is a document with no body yet (its head scripts still
// loading), and the script run again on the page as it then is.
func (p *Page) sampleLoaded(ctx context.Context) (string, error) {
	p.nav.wait(ctx, p.life.done, actionTimeoutMS*time.Millisecond)
	last := p.reusable()
	var raw any
	var err error
	for try := 1; ; try++ {
		var same bool
		if raw, same, err = p.sampleUnless(ctx, last); same {
			return last.raw, nil
		}
		if err == nil && raw == "leaving" { // a navigation its request has not shown yet
			p.nav.start()
			p.nav.wait(ctx, p.life.done, actionTimeoutMS*time.Millisecond)
			raw = nil
		}
		loading := err == nil && raw == nil
		if try == loadTries || !loading && (err == nil || !navigatedAway(err)) {
			break
		}
		state := playwright.LoadStateLoad
		if loading {
			state = playwright.LoadStateDomcontentloaded
		}
		_ = do(ctx, p.limits(), func() error {
			return p.driven().WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: state,
				Timeout: playwright.Float(actionTimeoutMS)})
		})
	}
	if err != nil {
		return "", p.fail("observe the page", err)
	}
	if raw == nil {
		return "", fmt.Errorf("observe the page: %s was still loading its head after %d tries", clip(p.driven().URL(), 200), loadTries)
	}
	got, ok := raw.(map[string]any)
	encoded, isText := got["sample"].(string)
	if !ok || !isText {
		return "", fmt.Errorf("observe the page: the script returned %T, not a sample", raw)
	}
	quiet, _ := got["quiet"].(string)
	p.mu.Lock()
	p.quiet, p.latest = quietSample{token: quiet, raw: encoded}, encoded
	p.mu.Unlock()
	return encoded, nil
}

// sampleUnless runs the observation script, handing it the token of the last sample (see
// reusable): same when the script answered that the page has not changed since that sample
// was taken, instead of sampling it again.
func (p *Page) sampleUnless(ctx context.Context, last quietSample) (raw any, same bool, err error) {
	raw, err = p.sampleCall(ctx, []any{p.probes(), p.heardSince(), last.token})
	got, ok := raw.(map[string]any)
	return raw, err == nil && ok && got["same"] == true, err
}

// quietSample is the latest sample the observation script returned, with the changes token
// that says the page has not changed since (see changes.js); an empty token when the sample
// may not be reused.
type quietSample struct {
	token, raw string
}

// reusable is the latest sample with the token under which the next observation may return
// it again: while the page provably has not changed since it was taken (its document,
// address, viewport and scroll the same, and it has counted no DOM mutation, no event by
// which a person or its script changes state without one, and no value set by its script;
// see changes.js), which the observation script asks before it samples. An empty token when
// the sample may not be reused (see observe.js), or the task reads cookies or storage (they
// change without an event): the script then samples afresh.
func (p *Page) reusable() quietSample {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.readsState() {
		return quietSample{}
	}
	return p.quiet
}

// actedOn is called as the page is about to be acted on: the next observation samples afresh
// without asking whether the page changed, since it almost always has, and the next call on a
// target takes a new look at it.
func (p *Page) actedOn() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.quiet, p.look, p.aim = quietSample{}, look{}, agent.Target{}
}

// readsState reports whether the task's authority reads a cookie or local storage, which
// change without anything in the page to count it.
func (p *Page) readsState() bool {
	a := p.opts.Authority
	if a == nil {
		return false
	}
	state := func(pr *agent.Probe) bool { return pr != nil && (pr.Cookie != "" || pr.Storage != "") }
	return state(a.Principal) || state(a.Version) || slices.ContainsFunc(a.Relevant, func(pr agent.Probe) bool { return state(&pr) })
}

// navigatedAway reports whether err is Playwright's word that the document a script ran in
// was replaced by a navigation.
func navigatedAway(err error) bool {
	for _, s := range []string{"Execution context was destroyed", "because of a navigation", "Cannot find context with specified id"} {
		if strings.Contains(err.Error(), s) {
			return true
		}
	}
	return false
}

// readHiddenCookies fills in the principal and facts whose cookie the page's script could not
// read, from the browser context's cookies for the page's address.
func (p *Page) readHiddenCookies(ctx context.Context, s *agent.Sample) error {
	a := p.opts.Authority
	if a == nil {
		return nil
	}
	wanted := func(pr *agent.Probe, got string) bool { return pr != nil && pr.Cookie != "" && got == "" }
	missing := wanted(a.Principal, s.Principal) || wanted(a.Version, s.Version)
	for i := range a.Relevant {
		missing = missing || (i < len(s.Facts) && wanted(&a.Relevant[i], s.Facts[i].Value))
	}
	if !missing {
		return nil
	}
	cookies, err := call(ctx, p.limits(), func() ([]playwright.Cookie, error) { return p.bc.Cookies(s.URL) })
	if err != nil {
		return p.fail("read the page's cookies", err)
	}
	jar := map[string]string{}
	for _, c := range cookies {
		jar[c.Name] = c.Value
	}
	fill := func(pr *agent.Probe, v *string) {
		if wanted(pr, *v) {
			*v = jar[pr.Cookie]
		}
	}
	fill(a.Principal, &s.Principal)
	fill(a.Version, &s.Version)
	for i := range a.Relevant {
		if i < len(s.Facts) {
			fill(&a.Relevant[i], &s.Facts[i].Value)
		}
	}
	return nil
}

// probes is the task's authority as the observation script reads it; nil for none.
func (p *Page) probes() any {
	a := p.opts.Authority
	if a == nil {
		return nil
	}
	one := func(pr *agent.Probe) any {
		if pr == nil {
			return nil
		}
		return map[string]any{"id": pr.ID, "test_id": pr.TestID, "css": pr.CSS, "cookie": pr.Cookie, "storage": pr.Storage}
	}
	relevant := make([]any, len(a.Relevant))
	for i := range a.Relevant {
		relevant[i] = one(&a.Relevant[i])
	}
	return map[string]any{"principal": one(a.Principal), "version": one(a.Version), "relevant": relevant}
}

// heardMark is where an observation left off reading a document's announcements (see
// announce.js): the document's time origin, and the last announcement it read.
type heardMark struct {
	Origin float64 `json:"origin"`
	Seq    int     `json:"seq"`
}

// decode decodes the sample an observation returns, and moves the page's mark past the
// announcements it read, so that the next observation reports only newer ones.
func (p *Page) decode(raw string, err error) (agent.Sample, error) {
	s, err := decodeSample(raw, err)
	if err != nil {
		return s, err
	}
	var read struct {
		Heard heardMark `json:"heard"`
	}
	if json.Unmarshal([]byte(raw), &read) == nil {
		p.mu.Lock()
		p.heard = read.Heard
		p.mu.Unlock()
	}
	return s, nil
}

// heardSince is the mark the next observation reads announcements from, as the script
// takes it.
func (p *Page) heardSince() map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return map[string]any{"origin": p.heard.Origin, "seq": p.heard.Seq}
}

func decodeSample(raw string, err error) (agent.Sample, error) {
	if err != nil {
		return agent.Sample{}, err
	}
	var s agent.Sample
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return agent.Sample{}, fmt.Errorf("observe the page: decode the sample: %w", err)
	}
	return s, nil
}

// capture takes a JPEG of the viewport.
func (p *Page) capture(ctx context.Context) ([]byte, error) {
	img, err := call(ctx, p.limits(), func() ([]byte, error) {
		return p.driven().Screenshot(playwright.PageScreenshotOptions{
			Type:    playwright.ScreenshotTypeJpeg,
			Quality: playwright.Int(screenshotQuality),
			Mask:    p.maskLocators(),
		})
	})
	if err != nil {
		return nil, p.fail("take a screenshot", err)
	}
	return img, nil
}

// store keeps a frame's file (a screenshot, a DOM snapshot) under a name derived from its
// content and ending in ext, so an unchanged page is stored once, and returns that name.
func (p *Page) store(img []byte, ext string) (string, error) {
	name := agent.ContentName(img, ext)
	path := filepath.Join(p.opts.MediaDir, name)
	if _, err := os.Stat(path); err == nil {
		return name, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("check for stored file %s: %w", path, err)
	}
	if err := os.WriteFile(path, img, 0o644); err != nil {
		return "", fmt.Errorf("store %s: %w", name, err)
	}
	return name, nil
}
