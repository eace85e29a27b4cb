package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/labs/booking"
	"observatory/backend/runner"
)

// connector connects to a remote browser and counts the connections made.
func connector(t *testing.T, url string, opts browser.RemoteOptions, count *atomic.Int32) runner.Launcher {
	return func(ctx context.Context) (agent.Browser, error) {
		b, err := browser.Connect(ctx, url, opts)
		if err != nil {
			return nil, err
		}
		count.Add(1)
		return b, nil
	}
}

// serverOptions ask a test's browser server to launch this machine's Chromium.
func serverOptions(t *testing.T) browser.RemoteOptions {
	exe, err := browser.ChromiumPath()
	if err != nil {
		t.Fatal(err)
	}
	return browser.RemoteOptions{Executable: exe}
}

// TestBookingAcrossTwoBrowserServers runs the eight attempts four at a time across two
// Playwright browser servers, two each: the same table as a local serial run, with both
// servers used.
func TestBookingAcrossTwoBrowserServers(t *testing.T) {
	a, b := browsertest.Server(t), browsertest.Server(t)
	var ca, cb atomic.Int32
	r := &runner.Runner{Suite: booking.New(), Endpoints: []runner.Endpoint{
		{Name: "a", Launch: connector(t, a.URL, serverOptions(t), &ca), Capacity: 2},
		{Name: "b", Launch: connector(t, b.URL, serverOptions(t), &cb), Capacity: 2},
	}}
	run, err := r.Run(context.Background(), "fleet", runner.Options{Parallel: 4, Override: roomyDeadline()})
	if err != nil {
		t.Fatal(err)
	}
	checkSeedTable(t, run)
	if ca.Load() == 0 || cb.Load() == 0 {
		t.Errorf("connections: %d to a, %d to b; want attempts on both", ca.Load(), cb.Load())
	}
}

// TestABrowserServersRecordingsComeHome records an attempt on a browser server with video,
// screenshots and a Playwright trace: the video is fetched with SaveAs (its file lies on the
// server's side), and every file lands in the run's media folder here.
func TestABrowserServersRecordingsComeHome(t *testing.T) {
	srv := browsertest.Server(t)
	var n atomic.Int32
	media := t.TempDir()
	r := &runner.Runner{Suite: booking.New(), Endpoints: []runner.Endpoint{
		{Name: "server", Launch: connector(t, srv.URL, serverOptions(t), &n), Capacity: 1},
	}}
	run, err := r.Run(context.Background(), "rec", runner.Options{Attempts: []string{"saves-normally"},
		MediaRoot: media, Media: agent.Media{Video: true, Screenshots: true, Trace: true}})
	if err != nil {
		t.Fatal(err)
	}
	a := run.Attempts[0]
	if a.Terminal != agent.Completed {
		t.Fatalf("%s ended %s: %s", a.Slug, a.Terminal, a.Reason)
	}
	for _, name := range []string{a.Video, a.Trace, a.Steps[0].After.Screenshot} {
		info, err := os.Stat(filepath.Join(media, "rec", name))
		if name == "" || err != nil || info.Size() == 0 {
			t.Errorf("recording %q from the browser server: %v", name, err)
		}
	}
}

// TestABrowserServerThatDiesMidRun kills one of two servers while its first attempt runs:
// that attempt ends honestly (failed, or ambiguous if its save may have crossed; never
// completed without the gate), the server is marked down, and every other attempt runs on
// the survivor with the seed's verdicts.
func TestABrowserServerThatDiesMidRun(t *testing.T) {
	doomed, survivor := browsertest.Server(t), browsertest.Server(t)
	var cd, cs atomic.Int32
	var once sync.Once
	r := &runner.Runner{Suite: booking.New(), Endpoints: []runner.Endpoint{
		{Name: "doomed", Launch: connector(t, doomed.URL, serverOptions(t), &cd), Capacity: 1},
		{Name: "survivor", Launch: connector(t, survivor.URL, serverOptions(t), &cs), Capacity: 1},
	}, Emit: func(p runner.Progress) {
		// The first attempts start on both servers at once; kill one once a step has run.
		if p.Kind == runner.StepDone {
			once.Do(doomed.Kill)
		}
	}}
	slugs := []string{"saves-normally", "notice-nothing-saved", "wrong-room", "save-refused", "renamed-button-exact"}
	run, err := r.Run(context.Background(), "lost", runner.Options{Parallel: 2, Attempts: slugs})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != agent.RunFinished || len(run.Attempts) != len(slugs) {
		t.Fatalf("run %s with %d attempts, want all %d to end", run.Status, len(run.Attempts), len(slugs))
	}
	lost := 0
	for _, a := range run.Attempts {
		w := booking.SeedTable[a.Slug]
		// A lost attempt's row may differ in any column, its terminal state included or not
		// (a seed row that fails anyway): its reason says the browser went.
		if strings.Contains(a.Reason, "browser") && booking.RowOf(a) != w {
			lost++
			if a.Terminal != agent.Failed && a.Terminal != agent.Ambiguous {
				t.Errorf("%s ended %s (%s) on the lost server; want failed or ambiguous", a.Slug, a.Terminal, a.Reason)
			}
			continue
		}
		if got := booking.RowOf(a); got != w {
			t.Errorf("%s: %+v (%s), want %+v", a.Slug, got, a.Reason, w)
		}
	}
	if lost == 0 {
		t.Errorf("no attempt was lost with the killed server: %+v", run.Attempts)
	}
	if cd.Load() != 1 {
		t.Errorf("%d connections to the killed server; want the one, then the server marked down", cd.Load())
	}
}

// TestBookingOverCDP runs two attempts in a Chromium reached over the DevTools protocol,
// with video and screenshots.
func TestBookingOverCDP(t *testing.T) {
	c := browsertest.CDP(t)
	var n atomic.Int32
	media := t.TempDir()
	r := &runner.Runner{Suite: booking.New(), Endpoints: []runner.Endpoint{
		{Name: "cdp", Launch: connector(t, c.URL, browser.RemoteOptions{CDP: true}, &n), Capacity: 1},
	}}
	run, err := r.Run(context.Background(), "cdp", runner.Options{Attempts: []string{"saves-normally", "wrong-room"},
		MediaRoot: media, Media: agent.Media{Video: true, Screenshots: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Attempts) != 2 || run.Attempts[0].Terminal != agent.Completed || run.Attempts[1].Terminal != agent.Failed {
		t.Fatalf("attempts over CDP: %+v", run.Attempts)
	}
	for _, a := range run.Attempts {
		if _, err := os.Stat(filepath.Join(media, "cdp", a.Video)); a.Video == "" || err != nil {
			t.Errorf("%s: video %q: %v", a.Slug, a.Video, err)
		}
		if a.Steps[0].After.Screenshot == "" {
			t.Errorf("%s: no screenshot", a.Slug)
		}
	}
}
