package app

import (
	"context"
	"sync"
	"time"

	"observatory/backend/runner"
)

// EndpointHealth is what a health check found of one browser endpoint runs use.
type EndpointHealth struct {
	// Name is the endpoint as runs name it ("local Chromium", "browser server ws://…").
	Name string `json:"name"`
	// Kind is "local", "browser-server" or "cdp".
	Kind string `json:"kind"`
	URL  string `json:"url,omitempty"`
	// Connects says whether a browser could be launched or reached there just now.
	Connects bool `json:"connects"`
	// Version is the browser's version, when it connects.
	Version string `json:"version,omitempty"`
	// Error says why it does not connect.
	Error string `json:"error,omitempty"`
	// Running is how many attempts run there now.
	Running int `json:"running"`
	// CheckMS is how long the check took.
	CheckMS int64 `json:"check_ms"`
	// Live says whether its pages can be watched live (a DevTools session: Chromium).
	Live bool `json:"live"`
}

// healthTimeout bounds one endpoint's health check.
const healthTimeout = 30 * time.Second

// Health checks every endpoint at once, each within healthTimeout: it launches or connects
// to a browser, reads its version and closes it again (a remote browser is left running), and
// counts the attempts running there now.
func (b *Browsers) Health() ([]EndpointHealth, error) {
	set, err := b.settings.Get()
	if err != nil {
		return nil, err
	}
	type target struct {
		health EndpointHealth
		launch runner.Launcher
	}
	var targets []target
	for _, rb := range b.remote {
		kind := "browser-server"
		if rb.CDP {
			kind = "cdp"
		}
		targets = append(targets, target{EndpointHealth{Name: rb.String(), Kind: kind, URL: rb.URL}, rb.launcher("")}) // opens no page: no guard to reach
	}
	if len(targets) == 0 {
		targets = append(targets, target{EndpointHealth{Name: runner.LocalEndpoint, Kind: "local"}, b.launch(false, set.BrowserPath)})
	}
	out := make([]EndpointHealth, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Go(func() {
			h := t.health
			start := time.Now()
			h.Connects, h.Version, h.Live, h.Error = check(t.launch)
			h.CheckMS = time.Since(start).Milliseconds()
			h.Running = b.load.running(h.Name)
			out[i] = h
		})
	}
	wg.Wait()
	return out, nil
}

// check launches or connects with launch and closes the browser again.
func check(launch runner.Launcher) (connects bool, version string, live bool, why string) {
	ctx, cancel := context.WithTimeout(context.Background(), healthTimeout)
	defer cancel()
	br, err := launch(ctx)
	if err != nil {
		return false, "", false, err.Error()
	}
	defer br.Close()
	if v, ok := br.(interface{ Version() string }); ok {
		version = v.Version()
	}
	if s, ok := br.(interface{ Streams() bool }); ok {
		live = s.Streams()
	}
	return true, version, live, ""
}

// endpointLoad counts the attempts running on each endpoint, from the runs' progress.
type endpointLoad struct {
	mu sync.Mutex
	// at is where each running attempt runs, by run id and slug.
	at map[string]map[string]string
}

// observe follows one progress event.
func (l *endpointLoad) observe(p runner.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.at == nil {
		l.at = map[string]map[string]string{}
	}
	switch p.Kind {
	case runner.AttemptStarted:
		if l.at[p.RunID] == nil {
			l.at[p.RunID] = map[string]string{}
		}
		l.at[p.RunID][p.Slug] = p.Endpoint
	case runner.AttemptFinished:
		delete(l.at[p.RunID], p.Slug)
	case runner.RunFinished:
		delete(l.at, p.RunID)
	}
}

// running counts the attempts running on the endpoint called name.
func (l *endpointLoad) running(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, run := range l.at {
		for _, ep := range run {
			if ep == name {
				n++
			}
		}
	}
	return n
}
