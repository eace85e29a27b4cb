package bench

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// profile is what Chromium's sampling profiler saw of the page's main thread while it ran:
// the time spent in script, layout and paint, in garbage collection, and by function.
type profile struct {
	busyMS, gcMS float64
	// byFunction is the self time of each function, by "name url:line".
	byFunction map[string]float64
}

// profiled runs do in the page under Chromium's CPU profiler (over CDP) and returns what it
// sampled.
func profiled(b *testing.B, page playwright.Page, do func()) profile {
	b.Helper()
	cdp, err := page.Context().NewCDPSession(page)
	if err != nil {
		b.Fatal(err)
	}
	defer cdp.Detach()
	for _, m := range []struct {
		method string
		params map[string]any
	}{{"Profiler.enable", nil}, {"Profiler.setSamplingInterval", map[string]any{"interval": 200}}, {"Profiler.start", nil}} {
		if _, err := cdp.Send(m.method, m.params); err != nil {
			b.Fatalf("%s: %v", m.method, err)
		}
	}
	do()
	out, err := cdp.Send("Profiler.stop", nil)
	if err != nil {
		b.Fatalf("Profiler.stop: %v", err)
	}
	return readProfile(out.(map[string]any)["profile"].(map[string]any))
}

// readProfile adds up a CDP Profiler.Profile's samples by the node they fell in.
func readProfile(p map[string]any) profile {
	names := map[float64]string{}
	for _, n := range p["nodes"].([]any) {
		node := n.(map[string]any)
		f := node["callFrame"].(map[string]any)
		name := f["functionName"].(string)
		if name == "" {
			name = "(anonymous)"
		}
		if url, _ := f["url"].(string); url != "" {
			name += fmt.Sprintf(" %s:%v", url[strings.LastIndex(url, "/")+1:], f["lineNumber"])
		}
		names[num(node["id"])] = name
	}
	out := profile{byFunction: map[string]float64{}}
	samples, deltas := p["samples"].([]any), p["timeDeltas"].([]any)
	for k, s := range samples {
		if k+1 >= len(deltas) {
			break
		}
		// A sample's time runs until the next one.
		ms := num(deltas[k+1]) / 1000
		name := names[num(s)]
		switch {
		case name == "(idle)":
			continue
		case name == "(garbage collector)":
			out.gcMS += ms
		}
		out.busyMS += ms
		out.byFunction[name] += ms
	}
	return out
}

// top is the n functions with the most self time, as "name ms" lines.
func (p profile) top(n int) []string {
	var names []string
	for name := range p.byFunction {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return p.byFunction[names[i]] > p.byFunction[names[j]] })
	var out []string
	for _, name := range names[:min(n, len(names))] {
		out = append(out, fmt.Sprintf("%7.1f ms  %s", p.byFunction[name], name))
	}
	return out
}

// num reads a JSON number as Playwright hands it over.
func num(v any) float64 {
	switch t := v.(type) {
	case float64:
		return t
	case int:
		return float64(t)
	case int64:
		return float64(t)
	}
	return 0
}
