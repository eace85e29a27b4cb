package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// colourServer serves /red, /green and /blue as pages of that solid colour.
func colourServer(tb testing.TB) string {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<!doctype html><title>%[1]s</title><body style='margin:0;background:%[1]s'><p>%[1]s</p>", strings.TrimPrefix(r.URL.Path, "/"))
	}))
	tb.Cleanup(srv.Close)
	return srv.URL
}

// colourOf names the colour of a pixel: red, green, blue, or "" for any other.
func colourOf(r, g, b uint8) string {
	switch {
	case r > 200 && g < 80 && b < 80:
		return "red"
	case g > 100 && r < 80 && b < 80:
		return "green"
	case b > 200 && r < 80 && g < 80:
		return "blue"
	}
	return ""
}

// jpegColour is the colour of a JPEG's centre, low down (below the page's text).
func jpegColour(tb testing.TB, data []byte) string {
	tb.Helper()
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("a frame is no JPEG: %v", err)
	}
	b := img.Bounds()
	r, g, bl, _ := img.At(b.Dx()/2, b.Dy()*3/4).RGBA()
	return colourOf(uint8(r>>8), uint8(g>>8), uint8(bl>>8))
}

// waitShown waits, a bounded time, until the newest frame of what (nil while there is none)
// shows colour.
func waitShown(t *testing.T, what string, newest func() []byte, colour string) {
	t.Helper()
	seen := ""
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if f := newest(); f != nil {
			if seen = jpegColour(t, f); seen == colour {
				return
			}
		}
	}
	t.Fatalf("the %s shows %q after 15 s, want %s", what, seen, colour)
}

// videoColours are the colours a WebM's frames show in order, each run of one colour once and
// frames of no named colour (a tab's blank start) left out; ffmpeg averages each frame into
// one pixel.
func videoColours(t *testing.T, path string) []string {
	t.Helper()
	ffmpeg, err := ffmpegPath()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, ffmpeg, "-nostdin", "-loglevel", "error", "-i", path,
		"-vf", "crop=iw/2:ih/4:iw/4:ih/2,scale=1:1", "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-").Output()
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	var runs []string
	for i := 0; i+3 <= len(out); i += 3 {
		if c := colourOf(out[i], out[i+1], out[i+2]); c != "" && (len(runs) == 0 || runs[len(runs)-1] != c) {
			runs = append(runs, c)
		}
	}
	return runs
}

// acknowledging counts the goroutines acknowledging a screencast's frames: one for each
// screencast running.
func acknowledging() int {
	buf := make([]byte, 1<<22)
	return strings.Count(string(buf[:runtime.Stack(buf, true)]), "browser.acknowledge(")
}

// waitAcknowledging waits, a bounded time, until n goroutines acknowledge screencast frames.
func waitAcknowledging(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); acknowledging() != n; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d screencasts acknowledged after 5 s, want %d", acknowledging(), n)
		}
	}
}

// The live view and the video follow the driven tab: a tab opened, one selected and the
// driven one closed each move them, the live frames and the film's frames coming from the
// tab driven, and the film stays one video of them all. Only the two screencasts of the
// driven tab run, none left on a tab left or closed, and none once the page closes.
func TestLiveViewAndVideoFollowTheDrivenTab(t *testing.T) {
	base := colourServer(t)
	dir := t.TempDir()
	before := acknowledging()
	page, err := testBrowser(t).NewPage(context.Background(), agent.PageOptions{MediaDir: dir, Name: "tabs", Media: agent.Media{Video: true}})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(context.Background(), base+"/red"); err != nil {
		t.Fatal(err)
	}
	got, ended := streamed(context.Background(), page)
	live := func() []byte {
		if all := got.list(); len(all) > 0 {
			return all[len(all)-1].JPEG
		}
		return nil
	}
	f := page.(*Page).film
	filmed := func() []byte {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.last
	}
	shows := func(colour string) { // for longer than the film's interval, whose newest frame it keeps
		t.Helper()
		waitShown(t, "live view", live, colour)
		waitShown(t, "film", filmed, colour)
		time.Sleep(3 * filmInterval)
	}
	shows("red")

	mustAct(t, page, agent.ActTabNew, "", "", base+"/green")
	shows("green")
	mustAct(t, page, agent.ActTabSelect, "", "", "0")
	shows("red")
	waitAcknowledging(t, before+2) // the film's and the live view's
	mustAct(t, page, agent.ActTabSelect, "", "", "1")
	shows("green")
	if err := page.Goto(context.Background(), base+"/blue"); err != nil { // the driven tab paints anew
		t.Fatal(err)
	}
	shows("blue")
	mustAct(t, page, agent.ActTabClose, "", "", "") // the driven one: tab 0 is driven again
	shows("red")
	waitAcknowledging(t, before+2)

	rec, err := page.Close()
	if err != nil {
		t.Fatal(err)
	}
	streamEnded(t, ended, 3*time.Second)
	waitAcknowledging(t, before)
	if rec.Video != "tabs.webm" {
		t.Fatalf("recorded %+v, want tabs.webm", rec)
	}
	want := []string{"red", "green", "red", "green", "blue", "red"}
	if runs := videoColours(t, filepath.Join(dir, rec.Video)); !slices.Equal(runs, want) {
		t.Errorf("the video shows %v, want %v", runs, want)
	}
}

// A JavaScript dialog belongs to its tab, as in Playwright MCP: one a tab not driven opens is
// not the agent's open dialog, and the driven tab is observed and acted on as usual; once the
// agent turns to its tab, it is, and it is answered there.
func TestADialogBelongsToItsTab(t *testing.T) {
	base := colourServer(t)
	page, err := testBrowser(t).NewPage(context.Background(), agent.PageOptions{})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	p := page.(*Page)
	p.KeepDialogs()
	if err := p.Goto(context.Background(), base+"/red"); err != nil {
		t.Fatal(err)
	}
	mustAct(t, p, agent.ActTabNew, "", "", base+"/green")
	if _, err := p.page.Evaluate("() => { setTimeout(() => confirm('from tab zero'), 0) }"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); p.dialogs.of(p.page) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("tab 0's confirm is not kept after 10 s")
		}
	}

	if d, open := p.Dialog(); open {
		t.Fatalf("the driven tab 1 has tab 0's dialog %+v", d)
	}
	if s := mustObserve(t, p); s.DialogOpen || s.JSDialog != nil || s.Title != "green" || s.Tab != 1 {
		t.Fatalf("tab 1 observed as %+v (title %q, tab %d), want green with no dialog", s.JSDialog, s.Title, s.Tab)
	}
	if err := p.Act(context.Background(), agent.Action{Kind: agent.ActDialogAccept}); !errors.Is(err, agent.ErrRefused) {
		t.Fatalf("accepting on tab 1 gave %v, want it refused: no dialog is open there", err)
	}
	if err := p.Goto(context.Background(), base+"/blue"); err != nil {
		t.Fatalf("tab 1 is not free to act while tab 0 has a dialog: %v", err)
	}

	mustAct(t, p, agent.ActTabSelect, "", "", "0")
	d, open := p.Dialog()
	if !open || d.Type != "confirm" || d.Message != "from tab zero" {
		t.Fatalf("tab 0's dialog is %+v, %v; want the confirm from tab zero", d, open)
	}
	if s := mustObserve(t, p); !s.DialogOpen || s.JSDialog == nil || s.JSDialog.Message != "from tab zero" {
		t.Fatalf("tab 0 observed with dialog %+v (open %v), want the confirm", s.JSDialog, s.DialogOpen)
	}
	mustAct(t, p, agent.ActDialogAccept, "", "", "")
	if d, open := p.Dialog(); open {
		t.Fatalf("the dialog %+v is still open after it was accepted", d)
	}
	if s := mustObserve(t, p); s.DialogOpen || s.Title != "red" {
		t.Fatalf("tab 0 after the answer: dialog %v, title %q", s.DialogOpen, s.Title)
	}
}
