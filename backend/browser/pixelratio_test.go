package browser

import (
	"context"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/agent"
)

// TestAPixelRatioSharpensScreenshotsOnly opens the lab at a pixel ratio of 2: each sample
// says so and is read at the page's own viewport, its screenshot (the stored file too) has
// twice the pixels each way, and a box is measured in CSS pixels as at a ratio of 1. At the
// default ratio a sample records none.
func TestAPixelRatioSharpensScreenshotsOnly(t *testing.T) {
	dir := t.TempDir()
	page := openLab(t, agent.PageOptions{Media: agent.Media{Screenshots: true, PixelRatio: 2}, MediaDir: dir})
	vp := page.(agent.Sized).Viewport()
	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	s := mustObserve(t, page)
	if s.PixelRatio != 2 || s.Viewport == nil || *s.Viewport != vp {
		t.Errorf("the sample was read at %+v with pixel ratio %v, want %+v at 2", s.Viewport, s.PixelRatio, vp)
	}
	want := agent.Size{Width: 2 * vp.Width, Height: 2 * vp.Height}
	if s.ScreenshotSize == nil || *s.ScreenshotSize != want {
		t.Errorf("the screenshot is %+v, want %+v", s.ScreenshotSize, want)
	}
	f, err := os.Open(filepath.Join(dir, s.Screenshot))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := jpeg.DecodeConfig(f)
	if err != nil || img.Width != want.Width || img.Height != want.Height {
		t.Errorf("the stored screenshot is %dx%d (%v), want %+v", img.Width, img.Height, err, want)
	}
	b, err := page.(agent.Measurer).Measure(context.Background(), agent.Target{Role: "textbox", Name: "Title"})
	if err != nil {
		t.Fatalf("measure the title field: %v", err)
	}
	if b.ViewportWidth != float64(vp.Width) || b.ViewportHeight != float64(vp.Height) {
		t.Errorf("the box's viewport is %vx%v, want the page's %+v in CSS pixels", b.ViewportWidth, b.ViewportHeight, vp)
	}

	plain := openLab(t, agent.PageOptions{Media: agent.Media{Screenshots: true}, MediaDir: t.TempDir()})
	if s := mustObserve(t, plain); s.PixelRatio != 0 || s.ScreenshotSize == nil || *s.ScreenshotSize != vp {
		t.Errorf("at the default ratio the sample records pixel ratio %v and a screenshot of %+v, want none and %+v", s.PixelRatio, s.ScreenshotSize, vp)
	}
}
