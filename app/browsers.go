package app

import (
	"context"
	"errors"
	"sync"
	"time"

	"observatory/app/apierror"
	"observatory/backend/browser"
	"observatory/backend/runner"
)

// EventBrowserSetup is the event the browser setup reports its progress under; its payload
// is a SetupState.
const EventBrowserSetup = "browser-setup"

// SetupCommand is the command line that does what the window's browser setup does.
const SetupCommand = "observatory install --with-browser"

// Setup states.
const (
	SetupIdle      = "idle"
	SetupRunning   = "running"
	SetupDone      = "done"
	SetupFailed    = "failed"
	SetupCancelled = "cancelled"
)

// SetupState is how far the browser setup has come.
type SetupState struct {
	// State is one of the Setup states.
	State string `json:"state"`
	// Progress is the current step's: "driver", "node" or "chromium" bytes, or "unpack" files.
	Progress browser.Progress `json:"progress"`
	// Error says why it failed.
	Error string `json:"error,omitempty"`
	// Warning is a problem that did not stop it (no ffmpeg for video).
	Warning string `json:"warning,omitempty"`
}

// BrowserStatus is what runs need and what is there: the Playwright driver and a browser.
type BrowserStatus struct {
	// Ready is true when runs can start: the driver and a browser are there.
	Ready bool `json:"ready"`
	// Driver is true when the Playwright driver is installed; DriverProblem says why not.
	Driver        bool   `json:"driver"`
	DriverProblem string `json:"driver_problem,omitempty"`
	// Chosen is the browser runs use, nil when none is found; BrowserProblem says why.
	Chosen         *browser.Candidate `json:"chosen,omitempty"`
	BrowserProblem string             `json:"browser_problem,omitempty"`
	// Headless is what headless runs use in place of Chosen: the headless shell installed
	// beside it (see browser.Candidate.Headless); nil when they use Chosen too.
	Headless *browser.Candidate `json:"headless,omitempty"`
	// Candidates are the browsers looked for, in order, each found or not.
	Candidates []browser.Candidate `json:"candidates"`
	// Setup is the browser setup's state.
	Setup SetupState `json:"setup"`
	// Command does the setup from a terminal.
	Command string `json:"command"`
}

// progressEvery spaces the setup's progress events; a phase's start and end always go out.
const progressEvery = 100 * time.Millisecond

// Browsers finds the browser runs use and sets up what is missing on first run (the
// Playwright driver, and Playwright's own Chromium when no browser is installed), and reports
// the health of the endpoints runs use (endpoints.go).
type Browsers struct {
	locator  browser.Locator
	settings *Settings
	emit     Emitter
	// remote are the browser servers and CDP endpoints runs use instead of launching here,
	// launch how runs launch Chromium here, and load counts the attempts on each endpoint
	// (see Health).
	remote []RemoteBrowser
	launch func(headed bool, executable string) runner.Launcher
	load   *endpointLoad

	// sending keeps events in the order of the changes they report (see publish).
	sending sync.Mutex
	mu      sync.Mutex
	state   SetupState
	cancel  context.CancelFunc
	done    chan struct{}
}

// Status checks for the driver and the browsers, and says which browser runs use: the one
// chosen in Settings, else the first found.
func (b *Browsers) Status() (BrowserStatus, error) {
	set, err := b.settings.Get()
	if err != nil {
		return BrowserStatus{}, err
	}
	st := BrowserStatus{Candidates: b.locator.Candidates(), Setup: b.setupState(), Command: SetupCommand}
	if err := browser.CheckDriver(); err != nil {
		st.DriverProblem = err.Error()
	} else {
		st.Driver = true
	}
	if c, err := b.locator.Choose(set.BrowserPath); err != nil {
		st.BrowserProblem = err.Error()
	} else {
		st.Chosen = &c
		if h := c.Headless(); h.Path != c.Path {
			st.Headless = &h
		}
	}
	st.Ready = st.Driver && st.Chosen != nil
	return st, nil
}

// ErrSetupGoing refuses a second setup while one runs.
var ErrSetupGoing = apierror.New(apierror.Conflict, "the browser setup is already running; wait for it or cancel it")

// Setup starts installing what is missing, in the background: the Playwright driver, then,
// when no browser is found, Playwright's Chromium. Its progress goes out as
// EventBrowserSetup events and in Status.
func (b *Browsers) Setup() error {
	b.mu.Lock()
	if b.state.State == SetupRunning {
		b.mu.Unlock()
		return ErrSetupGoing
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel, b.done = cancel, make(chan struct{})
	b.state = SetupState{State: SetupRunning}
	done := b.done
	b.mu.Unlock()
	b.publish(func(*SetupState) bool { return true })
	go b.setup(ctx, done)
	return nil
}

// publish applies change to the state under the lock and, when it says so, sends the
// result. Changes are sent one at a time in the order they were applied, so the window
// never hears an older state after a newer one, and never under the lock, so a slow
// transport never holds up Status.
func (b *Browsers) publish(change func(*SetupState) bool) {
	b.sending.Lock()
	defer b.sending.Unlock()
	b.mu.Lock()
	send := change(&b.state)
	st := b.state
	b.mu.Unlock()
	if send {
		b.emit.Emit(EventBrowserSetup, st)
	}
}

// CancelSetup stops a running setup and waits until what it had begun is removed.
func (b *Browsers) CancelSetup() {
	b.mu.Lock()
	cancel, done := b.cancel, b.done
	b.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// setup installs the driver and, when no browser is found, Chromium, then reports its end.
func (b *Browsers) setup(ctx context.Context, done chan struct{}) {
	defer close(done)
	report := b.reporter()
	err := browser.InstallDriver(ctx, report)
	var warning string
	if err == nil {
		if ffErr := browser.LinkFFmpeg(); ffErr != nil {
			warning = ffErr.Error()
		}
		set, serr := b.settings.Get()
		if _, cerr := b.locator.Choose(set.BrowserPath); serr == nil && errors.Is(cerr, browser.ErrNoChromium) {
			_, err = browser.DownloadChromium(ctx, report)
		}
	}
	end := SetupState{State: SetupDone, Warning: warning}
	switch {
	case ctx.Err() != nil:
		end = SetupState{State: SetupCancelled}
	case err != nil:
		end = SetupState{State: SetupFailed, Error: err.Error()}
	}
	b.publish(func(st *SetupState) bool {
		*st, b.cancel = end, nil
		return true
	})
}

// reporter records progress and sends it, at most every progressEvery within a phase; a
// report held back goes out when that time has passed, so the last one is never lost.
func (b *Browsers) reporter() browser.ProgressFunc {
	// Guarded by b.sending, as publish runs every change.
	var last time.Time
	var phase string
	var held *time.Timer
	flush := func() {
		b.publish(func(st *SetupState) bool {
			held, last = nil, time.Now()
			return st.State == SetupRunning
		})
	}
	return func(p browser.Progress) {
		b.publish(func(st *SetupState) bool {
			st.Progress = p
			if p.Phase == phase && p.Done != p.Total && time.Since(last) < progressEvery {
				if held == nil {
					held = time.AfterFunc(progressEvery-time.Since(last), flush)
				}
				return false
			}
			phase, last = p.Phase, time.Now()
			return true
		})
	}
}

// setupState is the setup's current state.
func (b *Browsers) setupState() SetupState {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state.State == "" {
		return SetupState{State: SetupIdle}
	}
	return b.state
}
