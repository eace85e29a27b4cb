package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"observatory/app"
	"observatory/backend/labs"
)

// endpointFlags say where attempts get their browsers, and where the labs listen so those
// browsers can reach them: run, serve and the desktop take the same ones.
type endpointFlags struct {
	browserWS, cdp []string
	perEndpoint    int
	labHost        string
}

func (e *endpointFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&e.browserWS, "browser-ws", nil, "a Playwright browser server's address (ws://HOST:PORT/...) to run attempts in; repeatable")
	fs.StringArrayVar(&e.cdp, "cdp", nil, "a Chromium's DevTools address (http://HOST:PORT) to run attempts in; repeatable")
	fs.IntVar(&e.perEndpoint, "per-endpoint", 0, "how many attempts each remote browser takes at once (default: --parallel)")
	fs.StringVar(&e.labHost, "lab-host", "", "an address of this machine a remote browser can reach: labs listen there and send the browser to it, and each page's origins guard listens there (default 127.0.0.1)")
}

// check refuses a lab host a browser cannot be sent to before anything starts (a run's
// Prepare checks it too).
func (e *endpointFlags) check() error {
	if e.labHost != "" {
		if err := labs.CheckHost(e.labHost); err != nil {
			return fmt.Errorf("--lab-host: %w", err)
		}
	}
	if e.perEndpoint < 0 || e.perEndpoint > app.MaxParallel {
		return fmt.Errorf("--per-endpoint %d: want 1 to %d attempts at once", e.perEndpoint, app.MaxParallel)
	}
	return nil
}

// remote are the browser servers and CDP endpoints the flags name.
func (e *endpointFlags) remote() []app.RemoteBrowser {
	var out []app.RemoteBrowser
	for _, u := range e.browserWS {
		out = append(out, app.RemoteBrowser{URL: u})
	}
	for _, u := range e.cdp {
		out = append(out, app.RemoteBrowser{URL: u, CDP: true})
	}
	return out
}
