package app

import (
	"context"
	"path/filepath"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/killswitch"
	"observatory/backend/liveproc"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// Options wire the services to a store and a transport.
type Options struct {
	Store   *store.Store
	DataDir string
	Version string
	// Transport is "desktop" or "http", reported to the UI.
	Transport string
	// OnReady runs when the UI's first call arrives (the desktop smoke test quits there).
	OnReady func()
	// Dialogs are the native file dialogs; nil outside the desktop.
	Dialogs Dialogs
	// Launch starts a browser; nil launches Chromium through Playwright.
	Launch func(headed bool, executable string) runner.Launcher
	// Remote are the browser servers and CDP endpoints runs use instead of Chromium launched
	// here, each taking PerEndpoint attempts at once (default: the Parallel setting).
	Remote      []RemoteBrowser
	PerEndpoint int
	// LabHost is an address of this machine the browsers can reach, where labs and the pages' origins
	// guards listen; empty is 127.0.0.1.
	LabHost string
	// Browsers finds the browsers runs may use; the zero value looks where this system's install.
	Browsers browser.Locator
	// FollowOthers follows the runs other processes of the data folder offer (see
	// liveproc): their progress shown, their approvals asked. Only a window sets it (the
	// desktop, serve): a process that follows tells those runs someone watches.
	FollowOthers bool
}

// Services are every service the UI calls; Bind hands them to a transport. Transfer is the
// transports' own (downloads and uploads) and is never bound.
type Services struct {
	// Tasks lists the tasks to run and opens task files; Runs runs them; History reads and
	// removes what they recorded; Analysis reads across runs; Files exports and imports them.
	Tasks    *Tasks
	Runs     *Runs
	History  *History
	Analysis *Analysis
	Files    *Files
	Settings *Settings
	Session  *Session
	// Approvals asks the window's user to approve the irreversible actions of its runs.
	Approvals *Approvals
	// Browsers says which browser runs use, sets up a missing one on first run, and reports
	// the health of the browser endpoints runs use.
	Browsers *Browsers
	Transfer *Transfer
	emitter  *switchableEmitter
	// watcher stops the runs here when the data folder's kill switch is pulled; nil when it
	// could not be watched (see KillSwitchErr).
	watcher       *killswitch.Watcher
	killSwitchErr error
	// following follows the runs other processes of the data folder offer; nil without one.
	following *liveproc.Watcher
}

// New builds the services. It points Playwright at the system's node now, before a desktop
// window starts (see browser.UseSystemNode); a failure only means runs find no node later.
func New(o Options) *Services {
	_ = browser.UseSystemNode()
	if o.Launch == nil {
		o.Launch = LaunchChromium
	}
	em := &switchableEmitter{}
	settings := SettingsIn(o.DataDir)
	transfer := NewTransfer(o.Store, o.DataDir)
	approvals := NewApprovals(em, windowKind(o.Transport))
	load := &endpointLoad{}
	tasks := &Tasks{settings: settings, recent: &recentTasks{dir: filepath.Join(o.DataDir, "tasks")}, dialogs: o.Dialogs}
	history := &History{store: o.Store, settings: settings, media: MediaRoot(o.DataDir)}
	others := newElsewhere(em, approvals)
	runs := &Runs{store: o.Store, settings: settings, emit: em, media: MediaRoot(o.DataDir), launch: o.Launch,
		remote: o.Remote, perEndpoint: o.PerEndpoint, labHost: o.LabHost, load: load,
		approvals: approvals, tasks: tasks, history: history, elsewhere: others}
	history.going = runs.goingID
	s := &Services{
		Tasks:     tasks,
		Runs:      runs,
		History:   history,
		Analysis:  &Analysis{store: o.Store},
		Approvals: approvals,
		Browsers:  &Browsers{locator: o.Browsers, settings: settings, emit: em, remote: o.Remote, launch: o.Launch, load: load},
		Files:     &Files{store: o.Store, dialogs: o.Dialogs, transfer: transfer},
		Transfer:  transfer,
		Settings:  settings,
		Session:   &Session{info: SessionInfo{Version: o.Version, Transport: o.Transport, DataDir: o.DataDir}, onReady: o.OnReady},
		emitter:   em,
	}
	if o.DataDir != "" {
		s.watcher, s.killSwitchErr = killswitch.Watch(o.DataDir, func() { _ = s.Runs.Stop() })
	}
	if o.DataDir != "" && o.FollowOthers {
		s.following = liveproc.Watch(o.DataDir, windowKind(o.Transport), others, em.watched)
	}
	return s
}

// KillSwitchErr says why `observatory stop` cannot reach these services' runs; nil when it can.
func (s *Services) KillSwitchErr() error { return s.killSwitchErr }

// SetEmitter connects the services' events to a transport.
func (s *Services) SetEmitter(e Emitter) { s.emitter.set(e) }

// Bind lists the service values a transport exposes; their type names are the service names.
func (s *Services) Bind() []any {
	return []any{s.Tasks, s.Runs, s.History, s.Analysis, s.Files, s.Settings, s.Session, s.Approvals, s.Browsers}
}

// Shutdown stops a run that is still going, so it ends recorded as cancelled, leaves the
// kill switch and stops following the runs of other processes (their asks close unanswered).
func (s *Services) Shutdown() {
	_ = s.Runs.Stop()
	if s.following != nil {
		s.following.Close()
		s.following = nil
	}
	if s.watcher != nil {
		_ = s.watcher.Close()
		s.watcher = nil
	}
}

// MediaRoot is the folder below the data folder where runs keep videos and screenshots.
func MediaRoot(dataDir string) string { return filepath.Join(dataDir, "media") }

// LaunchChromium launches Chromium through Playwright, headless unless headed.
func LaunchChromium(headed bool, executable string) runner.Launcher {
	return launchChromium(browser.Options{Headless: !headed, ExecutablePath: executable})
}

// LaunchHandedOver launches Chromium as LaunchChromium does, with a DevTools endpoint on
// 127.0.0.1 that an outside agent process drives it through.
func LaunchHandedOver(headed bool, executable string) runner.Launcher {
	return launchChromium(browser.Options{Headless: !headed, ExecutablePath: executable, DevTools: true})
}

func launchChromium(opts browser.Options) runner.Launcher {
	return func(ctx context.Context) (agent.Browser, error) {
		b, err := browser.Launch(ctx, opts)
		if err != nil {
			return nil, err // never a nil *Browser inside a non-nil agent.Browser
		}
		return b, nil
	}
}

// windowKind is what a window of transport is, for the record of who answered an approval:
// "serve" over HTTP, else "desktop".
func windowKind(transport string) string {
	if transport == "http" {
		return "serve"
	}
	return "desktop"
}
