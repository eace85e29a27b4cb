package browser

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// Bounds of a recorded video's frames: the page at full size, at most 25 frames a second, in
// the JPEG quality Playwright's own recorder asks of Chromium.
const (
	filmQuality  = 90
	filmInterval = 40 * time.Millisecond
)

// film records a page's video from Chromium's screencast (Page.startScreencast) of the
// driven tab, which sends a frame only when the page paints anew: the frames are kept as they
// arrive, at most one per filmInterval (the newest of each), in a spool folder of their own,
// and encoded into a WebM only once the page is done (see encodeWebM), off the attempt's
// path. When an agent's driver turns to another tab the screencast moves to it (see follow)
// and the film goes on from its frames, one timeline. Playwright's own recorder instead
// encodes 25 frames a second of one tab in real time while the attempt runs, most of them
// repeats of the last, and takes CPU from the attempt on a small machine.
type film struct {
	cast    *drivenCast // owned by follow's goroutine while it runs, then by halt
	ffmpeg  string      // the encoder
	spool   string
	opened  time.Time
	size    playwright.Size
	stop    chan struct{} // closed, once, when the film stops: its follower ends
	once    sync.Once
	drained chan struct{} // closed once every frame that came before stop is added; nil without a browser
	// followed is closed once follow's goroutine has ended; nil while none runs.
	followed chan struct{}

	mu      sync.Mutex
	ended   time.Time // when the page was cut off; zero while it runs
	pending *still    // the newest frame of the current interval, not yet written
	last    []byte    // the newest frame added
	kept    []still   // the frames written to the spool, in order
	err     error     // the first frame that could not be written
}

// still is one frame of a film: its file in the spool and when it arrived.
type still struct {
	jpeg []byte // only while pending
	file string
	at   time.Time
}

// filmRetry is how soon a screencast the driven tab refused to start is asked for again.
const filmRetry = 100 * time.Millisecond

// startFilm opens a DevTools session on pg and starts its screencast into a fresh spool
// folder, for ffmpeg to encode. Its calls are bounded by lim. Frames are written to the spool
// off Playwright's dispatch goroutine, which every page's events share.
func startFilm(ctx context.Context, bc playwright.BrowserContext, pg playwright.Page, size playwright.Size, ffmpeg string, lim limits) (*film, error) {
	spool, err := os.MkdirTemp("", "observatory-film-")
	if err != nil {
		return nil, fmt.Errorf("make the video's frame folder: %w", err)
	}
	f := &film{ffmpeg: ffmpeg, spool: spool, opened: time.Now(), size: size, stop: make(chan struct{})}
	frames := make(chan agent.LiveFrame, 16)
	f.cast = &drivenCast{bc: bc, lim: lim, tab: pg, shape: castShape{quality: filmQuality, size: size},
		frame: func(fr agent.LiveFrame) {
			select {
			case frames <- fr:
			case <-f.stop:
			}
		}}
	f.drained = make(chan struct{})
	go f.keep(frames)
	if err := f.cast.ready(ctx); err != nil {
		what := "start recording the video"
		if f.cast.c == nil {
			what = "open a DevTools session to record the video"
		}
		f.drop()
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return f, nil
}

// follow moves the film's screencast to each tab p drives from now on, in the background,
// until the film stops or p dies; a start the tab refuses is asked for again every filmRetry.
// The screencast's calls are bounded by p's life from then on.
func (f *film) follow(p *Page) {
	f.followed = make(chan struct{})
	f.cast.lim = p.limits()
	go func() {
		defer close(f.followed)
		f.cast.follow(context.Background(), p, castFollow{stop: f.stop, retry: filmRetry})
	}()
}

// keep adds the frames that come, until the film stops; then it adds those still waiting
// and closes f.drained.
func (f *film) keep(frames <-chan agent.LiveFrame) {
	defer close(f.drained)
	for {
		select {
		case fr := <-frames:
			f.add(fr.JPEG, fr.At)
		case <-f.stop:
			for {
				select {
				case fr := <-frames:
					f.add(fr.JPEG, fr.At)
				default:
					return
				}
			}
		}
	}
}

// add keeps a frame that arrived at at: it replaces the pending frame of the same interval,
// and a frame of a later interval writes the pending one to the spool first. A frame the same
// as the one before it (a screenshot makes the page composite anew) adds nothing: the one
// before shows on.
func (f *film) add(img []byte, at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if (!f.ended.IsZero() && at.After(f.ended)) || bytes.Equal(img, f.last) {
		return
	}
	f.last = img
	if f.pending != nil && f.slot(at) > f.slot(f.pending.at) {
		f.flush()
	}
	f.pending = &still{jpeg: img, at: at}
}

// slot is the filmInterval a moment falls in, counted from when the film started.
func (f *film) slot(at time.Time) int64 { return int64(at.Sub(f.opened) / filmInterval) }

// flush writes the pending frame to the spool; f.mu is held.
func (f *film) flush() {
	if f.pending == nil {
		return
	}
	s := *f.pending
	f.pending = nil
	s.file = fmt.Sprintf("%06d.jpg", len(f.kept))
	if err := os.WriteFile(filepath.Join(f.spool, s.file), s.jpeg, 0o600); err != nil {
		if f.err == nil {
			f.err = fmt.Errorf("write a video frame: %w", err)
		}
		return
	}
	s.jpeg = nil
	f.kept = append(f.kept, s)
}

// end marks the moment the page was cut off, where the video ends: frames that came after it
// are not kept. The first call counts.
func (f *film) end() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ended.IsZero() {
		f.ended = time.Now()
	}
}

// halt stops the screencast and closes the DevTools session, each bounded by lim.
func (f *film) halt(lim limits) {
	f.end()
	f.quit()
	f.cast.close(lim)
}

// develop encodes the film into the WebM at path and deletes its spool. A page that never
// painted gets a white video of its length, as Playwright's recorder gives.
func (f *film) develop(ctx context.Context, path string) error {
	defer f.drop()
	f.end()
	f.quit()
	f.mu.Lock()
	f.flush()
	kept, ended, err := f.kept, f.ended, f.err
	f.mu.Unlock()
	if err != nil {
		return err
	}
	if len(kept) == 0 {
		blank, err := whiteFrame(f.size)
		if err != nil {
			return err
		}
		kept = []still{{file: "blank.jpg", at: f.opened}}
		if err := os.WriteFile(filepath.Join(f.spool, kept[0].file), blank, 0o600); err != nil {
			return fmt.Errorf("write a video frame: %w", err)
		}
	}
	return encodeWebM(ctx, f.ffmpeg, f.spool, timeline(kept, f.opened, ended), f.size, path)
}

// drop stops recording and deletes the spool with every frame in it. A screencast still
// running is closed within the bounds of its calls, at once when the page is gone.
func (f *film) drop() {
	f.quit()
	if f.cast != nil {
		f.cast.close(f.cast.lim)
	}
	_ = os.RemoveAll(f.spool)
}

// quit closes f.stop, once, and waits until the frames that came before are added and the
// screencast no longer follows the driven tab.
func (f *film) quit() {
	f.once.Do(func() { close(f.stop) })
	if f.drained != nil {
		<-f.drained
	}
	if f.followed != nil {
		<-f.followed
	}
}

// timeline gives each kept frame how long it shows: the first from when the film started,
// each until the next arrived, and the last until the film ended.
func timeline(kept []still, opened, ended time.Time) []shown {
	out := make([]shown, len(kept))
	for i, s := range kept {
		until := ended
		if i+1 < len(kept) {
			until = kept[i+1].at
		}
		from := s.at
		if i == 0 {
			from = opened
		}
		out[i] = shown{file: s.file, lasts: max(until.Sub(from), filmInterval)}
	}
	return out
}

// shown is a frame of the video and how long it shows.
type shown struct {
	file  string
	lasts time.Duration
}

// whiteFrame is a white JPEG of size, the frame of a page that never painted.
func whiteFrame(size playwright.Size) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, size.Width, size.Height))
	draw.Draw(img, img.Bounds(), &image.Uniform{C: color.White}, image.Point{}, draw.Src)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 80}); err != nil {
		return nil, fmt.Errorf("make a blank video frame: %w", err)
	}
	return b.Bytes(), nil
}
