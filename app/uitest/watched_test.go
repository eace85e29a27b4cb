package uitest

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/app"
	"observatory/backend/agent"
)

// TestAWatchedRunRecordsTheTruePage runs *Run all* with two windows open on it, both
// watching the attempts live, and checks the stored run as a run from the command line would
// be: every attempt opened at its viewport, every sample read at it, every screenshot of its
// size and showing the page once (not tiled as a 640×448 layout shows it), every target box
// measured in it and over something drawn; the trace marks no step as captured at another
// size.
func TestAWatchedRunRecordsTheTruePage(t *testing.T) {
	srv, st, dir := newServerWithStore(t)
	first, second := openPage(t, srv), openPage(t, srv)
	long := playwright.Float(runTimeout)

	must(t, "run all", button(first, "Run all").Click())
	for _, w := range []playwright.Page{first, second} {
		must(t, "a window shows the page live", expect.Locator(w.Locator(".live-card img.live-screen")).ToHaveCount(1,
			playwright.LocatorAssertionsToHaveCountOptions{Timeout: long}))
	}
	must(t, "the run ends", expect.Locator(button(first, "Stop")).ToBeDisabled(playwright.LocatorAssertionsToBeDisabledOptions{Timeout: long}))

	runs, err := st.List()
	must(t, "list the runs", err)
	if len(runs) != 1 {
		t.Fatalf("%d runs stored, want 1", len(runs))
	}
	run, err := st.Get(runs[0].ID)
	must(t, "read the run", err)
	media := filepath.Join(app.MediaRoot(dir), run.ID)
	shots := 0
	for _, a := range run.Attempts {
		vp := a.Viewport
		if vp == nil || vp.Width <= 0 || vp.Height <= 0 {
			t.Errorf("%s: recorded no viewport", a.Slug)
			continue
		}
		for _, s := range a.Steps {
			at := fmt.Sprintf("%s step %d", a.Slug, s.Index+1)
			for side, sm := range map[string]agent.Sample{"before": s.Before, "after": s.After} {
				if sm.Viewport == nil || *sm.Viewport != *vp {
					t.Errorf("%s %s: read at %+v, the attempt's viewport is %+v", at, side, sm.Viewport, *vp)
				}
				if sm.Screenshot == "" {
					continue
				}
				shots++
				img := decodeShot(t, filepath.Join(media, sm.Screenshot))
				if b := img.Bounds(); b.Dx() != vp.Width || b.Dy() != vp.Height || sm.ScreenshotSize == nil || *sm.ScreenshotSize != *vp {
					t.Errorf("%s %s: screenshot %s is %dx%d (recorded %+v), want %+v", at, side, sm.Screenshot, b.Dx(), b.Dy(), sm.ScreenshotSize, *vp)
				}
				if tiled(img) {
					t.Errorf("%s %s: screenshot %s shows the page tiled 2×2", at, side, sm.Screenshot)
				}
			}
			b := s.TargetBox
			if b == nil {
				continue
			}
			if b.ViewportWidth != float64(vp.Width) || b.ViewportHeight != float64(vp.Height) {
				t.Errorf("%s: target box measured at %vx%v, want %+v", at, b.ViewportWidth, b.ViewportHeight, *vp)
			}
			if s.Before.Screenshot != "" && blank(decodeShot(t, filepath.Join(media, s.Before.Screenshot)), *b) {
				t.Errorf("%s: the target box %+v lies over nothing drawn on the screenshot before it", at, *b)
			}
		}
	}
	if shots == 0 {
		t.Fatal("the run stored no screenshot to check")
	}

	must(t, "open the first attempt's trace", row(second, run.Attempts[0].Title).Click())
	for k := range run.Attempts[0].Steps {
		key := map[bool]string{true: "Home", false: "ArrowRight"}[k == 0]
		must(t, "press "+key, second.Keyboard().Press(key))
		expectContains(t, second.GetByTestId("step-heading"), fmt.Sprintf("Step %d of %d:", k+1, len(run.Attempts[0].Steps)))
		must(t, "the step is read whole", expect.Locator(second.GetByTestId("distance")).ToBeVisible())
		must(t, "no capture is marked", expect.Locator(second.GetByTestId("miscapture")).ToHaveCount(0))
	}
}

// decodeShot reads a stored JPEG screenshot.
func decodeShot(t *testing.T, path string) image.Image {
	t.Helper()
	data, err := os.ReadFile(path)
	must(t, "read "+path, err)
	img, err := jpeg.Decode(bytes.NewReader(data))
	must(t, "decode "+path, err)
	return img
}

// luma is a pixel's brightness, 0 to 255.
func luma(img image.Image, x, y int) float64 {
	r, g, b, _ := img.At(x, y).RGBA()
	return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 257
}

// tiled reports whether img repeats one quadrant 2×2, as a screenshot of a page laid out at
// half its size does: each quadrant's pixels within JPEG noise of the top left one's.
func tiled(img image.Image) bool {
	b := img.Bounds()
	w, h := b.Dx()/2, b.Dy()/2
	diff := func(dx, dy int) float64 {
		sum, n := 0.0, 0
		for y := 0; y < h; y += 3 {
			for x := 0; x < w; x += 3 {
				sum += math.Abs(luma(img, b.Min.X+x, b.Min.Y+y) - luma(img, b.Min.X+x+dx, b.Min.Y+y+dy))
				n++
			}
		}
		return sum / float64(n)
	}
	const noise = 3
	return diff(w, 0) < noise && diff(0, h) < noise
}

// blank reports whether the area of box on img is one flat colour: no element's border, fill
// or text is drawn there.
func blank(img image.Image, box agent.Box) bool {
	sx := float64(img.Bounds().Dx()) / box.ViewportWidth
	sy := float64(img.Bounds().Dy()) / box.ViewportHeight
	lo, hi := 255.0, 0.0
	for y := int(box.Y * sy); y < int((box.Y+box.Height)*sy); y++ {
		for x := int(box.X * sx); x < int((box.X+box.Width)*sx); x++ {
			l := luma(img, x, y)
			lo, hi = math.Min(lo, l), math.Max(hi, l)
		}
	}
	return hi-lo < 24
}
