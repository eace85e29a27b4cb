package bench

import (
	"context"
	"fmt"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/labs/booking"
	"observatory/backend/runner"
)

// BenchmarkSuite runs the booking lab's eight attempts as one suite, the way users run them,
// at several levels of parallelism, locally and across two Playwright browser servers, and
// with recording on and off. Every run's table is checked against the seed's: a faster run
// with other verdicts fails the benchmark. Each level also reports the CPU time the suite
// took, summed over this process, the drivers, the browsers and the encoders (cpu-s/op, on
// Linux). bench/scale.sh prints the speed-ups and the cost of recording as ratios, and the
// shortest wall time that CPU time allows on this machine's cores.
func BenchmarkSuite(b *testing.B) {
	meter := meterCPU(b) // before any browser starts, so that all of them are counted
	local := browsertest.Launch(b)
	shared := func(context.Context) (agent.Browser, error) { return sharedBrowser{local}, nil }
	exe, err := browser.ChromiumPath()
	if err != nil {
		b.Fatal(err)
	}
	servers := []*browsertest.Remote{browsertest.Server(b), browsertest.Server(b)}
	fleet := func(perEndpoint int) []runner.Endpoint {
		var eps []runner.Endpoint
		for i, s := range servers {
			url := s.URL
			eps = append(eps, runner.Endpoint{Name: fmt.Sprint("server ", i+1), Capacity: perEndpoint,
				Launch: func(ctx context.Context) (agent.Browser, error) {
					return browser.Connect(ctx, url, browser.RemoteOptions{Executable: exe})
				}})
		}
		return eps
	}
	for _, tc := range []struct {
		name      string
		endpoints []runner.Endpoint
		opts      runner.Options
	}{
		{"local/parallel=1", nil, runner.Options{Parallel: 1}},
		{"local/parallel=2", nil, runner.Options{Parallel: 2}},
		{"local/parallel=4", nil, runner.Options{Parallel: 4}},
		{"local/parallel=8", nil, runner.Options{Parallel: 8}},
		{"servers=2/parallel=4", fleet(2), runner.Options{Parallel: 4}},
		{"servers=2/parallel=8", fleet(4), runner.Options{Parallel: 8}},
		{"recording=off", nil, runner.Options{Parallel: 1}},
		{"recording=on", nil, runner.Options{Parallel: 1, Media: agent.Media{Video: true, Screenshots: true}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			from := meter.mark()
			for b.Loop() {
				opts := tc.opts
				opts.MediaRoot = b.TempDir()
				r := &runner.Runner{Suite: booking.New(), Launch: shared, Endpoints: tc.endpoints}
				run, err := r.Run(context.Background(), "bench", opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := booking.CheckTable(run.Attempts); err != nil {
					b.Fatalf("the table changed at %s: %v", tc.name, err)
				}
			}
			meter.report(b, from)
		})
	}
}

// sharedBrowser lends the benchmark's one Chromium to each run without letting a run close
// it, so every level pays for contexts and pages, not for starting Chromium.
type sharedBrowser struct{ agent.Browser }

func (sharedBrowser) Close() error { return nil }
