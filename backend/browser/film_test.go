package browser

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
	"observatory/backend/internal/mediatest"
)

// frameOf is a JPEG of size in one colour, so that frames differ as a page's do.
func frameOf(t *testing.T, size playwright.Size, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, size.Width, size.Height))
	draw.Draw(img, img.Bounds(), &image.Uniform{C: c}, image.Point{}, draw.Src)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// newFilm is a film with no browser behind it, started at opened, for the frames a test adds.
func newFilm(t *testing.T, opened time.Time) *film {
	t.Helper()
	ffmpeg, err := ffmpegPath()
	if err != nil {
		t.Fatal(err)
	}
	return &film{ffmpeg: ffmpeg, spool: t.TempDir(), opened: opened, size: playwright.Size{Width: 320, Height: 240}, stop: make(chan struct{})}
}

func TestFilmKeepsTheNewestFrameOfEachInterval(t *testing.T) {
	t0 := time.Now()
	f := newFilm(t, t0)
	red, green, blue := frameOf(t, f.size, color.RGBA{R: 255, A: 255}), frameOf(t, f.size, color.RGBA{G: 255, A: 255}), frameOf(t, f.size, color.RGBA{B: 255, A: 255})
	f.add(red, t0.Add(5*time.Millisecond))
	f.add(green, t0.Add(30*time.Millisecond)) // the same interval: replaces red
	f.add(green, t0.Add(50*time.Millisecond)) // the same picture again: green shows on
	f.add(blue, t0.Add(90*time.Millisecond))  // a later one: green is kept
	f.end()
	f.add(red, t0.Add(200*time.Millisecond)) // after the end: not kept
	f.mu.Lock()
	f.flush()
	kept := f.kept
	f.mu.Unlock()
	if len(kept) == 2 && !kept[0].at.Equal(t0.Add(30*time.Millisecond)) {
		t.Errorf("the green frame is kept from %s, want from when it first came, 30 ms in", kept[0].at.Sub(t0))
	}
	if len(kept) != 2 {
		t.Fatalf("kept %d frames, want 2 (the newest of each interval, none after the end)", len(kept))
	}
	for i, want := range [][]byte{green, blue} {
		got, err := os.ReadFile(filepath.Join(f.spool, kept[i].file))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("frame %d in the spool is not the newest of its interval (%v)", i, err)
		}
	}
}

func TestTimelineShowsEachFrameUntilTheNext(t *testing.T) {
	t0 := time.Now()
	kept := []still{{file: "a", at: t0.Add(100 * time.Millisecond)}, {file: "b", at: t0.Add(400 * time.Millisecond)}, {file: "c", at: t0.Add(410 * time.Millisecond)}}
	got := timeline(kept, t0, t0.Add(time.Second))
	want := []time.Duration{400 * time.Millisecond, filmInterval, 590 * time.Millisecond}
	var total time.Duration
	for i, s := range got {
		total += s.lasts
		if s.file != kept[i].file || s.lasts != want[i] {
			t.Errorf("frame %d shows %s for %s, want %s for %s", i, s.file, s.lasts, kept[i].file, want[i])
		}
	}
	if total < time.Second {
		t.Errorf("the frames show for %s, less than the film's second", total)
	}
}

// developed develops f into a WebM in a fresh folder and returns its path and how long ffprobe
// says it plays.
func developed(t *testing.T, f *film) (string, float64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "attempt.webm")
	if err := f.develop(context.Background(), path); err != nil {
		t.Fatalf("develop: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, ebmlMagic) {
		t.Fatalf("the video is not a WebM (%v)", err)
	}
	secs, ok := mediatest.VideoSeconds(t, path)
	if !ok {
		t.Fatal("cannot check the video's length without ffprobe")
	}
	if _, err := os.Stat(f.spool); !os.IsNotExist(err) {
		t.Errorf("the spool %s is still there after developing (%v)", f.spool, err)
	}
	return path, secs
}

func TestDevelopedVideoLastsAsTheFilm(t *testing.T) {
	t0 := time.Now().Add(-2 * time.Second)
	f := newFilm(t, t0)
	f.add(frameOf(t, f.size, color.White), t0.Add(100*time.Millisecond))
	f.add(frameOf(t, f.size, color.Black), t0.Add(700*time.Millisecond))
	f.add(frameOf(t, f.size, color.RGBA{R: 200, A: 255}), t0.Add(1500*time.Millisecond))
	f.mu.Lock()
	f.ended = t0.Add(2 * time.Second)
	f.mu.Unlock()
	_, secs := developed(t, f)
	if math.Abs(secs-2) > 0.1 {
		t.Errorf("the video plays %.2f s, want the film's 2 s", secs)
	}
}

func TestAPageThatNeverPaintedGetsABlankVideoOfItsLength(t *testing.T) {
	t0 := time.Now().Add(-time.Second)
	f := newFilm(t, t0)
	f.mu.Lock()
	f.ended = t0.Add(time.Second)
	f.mu.Unlock()
	_, secs := developed(t, f)
	if math.Abs(secs-1) > 0.1 {
		t.Errorf("the blank video plays %.2f s, want 1 s", secs)
	}
}

func TestAFrameFFmpegCannotReadLeavesNoVideo(t *testing.T) {
	t0 := time.Now()
	f := newFilm(t, t0)
	f.add([]byte("not a JPEG at all"), t0)
	dir := t.TempDir()
	path := filepath.Join(dir, "attempt.webm")
	err := f.develop(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), "encode the video") {
		t.Fatalf("develop of a broken frame = %v, want an error saying the video could not be encoded", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the failed encoding left %s in the media folder", left[0].Name())
	}
}

func TestVideoWithoutFFmpegIsRefusedBeforeThePageOpens(t *testing.T) {
	b := testBrowser(t)
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	media := t.TempDir()
	page, err := b.NewPage(context.Background(), agent.PageOptions{MediaDir: media, Name: "attempt", Media: agent.Media{Video: true}})
	if err == nil {
		_, _ = page.Close()
		t.Fatal("a page recording video opened with no ffmpeg to encode it")
	}
	if !errors.Is(err, errNoFFmpeg) || !strings.Contains(err.Error(), "ffmpeg") {
		t.Errorf("NewPage = %v, want the error saying video needs ffmpeg", err)
	}
	if left, _ := os.ReadDir(media); len(left) != 0 {
		t.Errorf("the refused page left %s in the media folder", left[0].Name())
	}
}
