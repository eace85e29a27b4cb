// Package desktop runs the app's services in a Wails window. The same service values that
// `observatory serve` exposes over HTTP are bound here; events go through Wails' runtime,
// and run media are served by the Wails asset handler.
package desktop

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"observatory/app"
	"observatory/app/apierror"
)

// Options configure the window.
type Options struct {
	Services *app.Services
	Assets   fs.FS
	DataDir  string
	// Smoke quits with success as soon as the frontend has called the backend and the window
	// is wholly on its screen, and fails after SmokeTimeout (or the screen check) otherwise:
	// the CI check that the real window works end to end.
	Smoke        bool
	SmokeTimeout time.Duration
	Log          io.Writer
}

// emitter sends events through the Wails runtime.
type emitter struct{ ctx context.Context }

func (e emitter) Emit(name string, data any) { runtime.EventsEmit(e.ctx, name, data) }

// Window is the desktop window's handle for the services: it hears the UI's first call (the
// smoke test waits for it), fits the window to its screen and opens native file dialogs.
type Window struct {
	mu     sync.Mutex
	ctx    context.Context
	ready  chan struct{}
	once   sync.Once
	fitted chan struct{}
	fit    sync.Once
}

var _ app.Dialogs = (*Window)(nil)

// NewWindow makes a window handle.
func NewWindow() *Window { return &Window{ready: make(chan struct{}), fitted: make(chan struct{})} }

// Ready records that the UI called in; it is the Session service's OnReady hook.
func (win *Window) Ready() { win.once.Do(func() { close(win.ready) }) }

// fitOnce fits the window to its screen when its page first loads (the window is shown by
// then, so Wails can tell which screen it is on); a failure is logged, the window stays open.
func (win *Window) fitOnce(ctx context.Context, log io.Writer) {
	win.fit.Do(func() {
		if err := fitScreen(ctx); err != nil {
			fmt.Fprintf(log, "desktop: the window could not be fitted to its screen: %v\n", err)
		}
		close(win.fitted)
	})
}

// smokeCheck waits until the UI has called the backend and the window has been fitted, then
// until the window is wholly on its screen (bounded: the window system confirms a move late).
func (win *Window) smokeCheck(ctx context.Context, timeout time.Duration) error {
	expired := time.After(timeout)
	for _, step := range []struct {
		done <-chan struct{}
		what string
	}{{win.ready, "the UI did not call the backend"}, {win.fitted, "the page did not finish loading"}} {
		select {
		case <-step.done:
		case <-expired:
			return fmt.Errorf("smoke: %s within %s", step.what, timeout)
		}
	}
	deadline := time.Now().Add(10 * time.Second) // a loaded CI machine confirms late
	for {
		err := checkFits(ctx)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (win *Window) attach(ctx context.Context) {
	win.mu.Lock()
	win.ctx = ctx
	win.mu.Unlock()
}

func (win *Window) context() (context.Context, error) {
	win.mu.Lock()
	defer win.mu.Unlock()
	if win.ctx == nil {
		return nil, fmt.Errorf("the window has not started yet")
	}
	return win.ctx, nil
}

// SaveFile asks where to save a file; "" means the user cancelled.
func (win *Window) SaveFile(title, defaultName string) (string, error) {
	ctx, err := win.context()
	if err != nil {
		return "", err
	}
	filter := runtime.FileFilter{DisplayName: "Observatory run files (*.json)", Pattern: "*.json"}
	if strings.HasSuffix(defaultName, ".zip") {
		filter = runtime.FileFilter{DisplayName: "Zip archives (*.zip)", Pattern: "*.zip"}
	}
	return runtime.SaveFileDialog(ctx, runtime.SaveDialogOptions{Title: title, DefaultFilename: defaultName,
		Filters: []runtime.FileFilter{filter}})
}

// OpenFile asks for a file to open, showing those filter matches; "" means the user
// cancelled.
func (win *Window) OpenFile(title string, filter app.FileFilter) (string, error) {
	ctx, err := win.context()
	if err != nil {
		return "", err
	}
	return runtime.OpenFileDialog(ctx, runtime.OpenDialogOptions{Title: title,
		Filters: []runtime.FileFilter{{DisplayName: filter.DisplayName, Pattern: filter.Pattern}}})
}

// Run opens the window and blocks until it closes. With Smoke it returns an error unless the
// UI reached the backend in time.
func (win *Window) Run(o Options) error {
	if o.SmokeTimeout == 0 {
		o.SmokeTimeout = 90 * time.Second
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	var smokeErr error
	smokeDone := make(chan struct{})
	err := wails.Run(&options.App{
		Title:     "Observatory",
		Width:     preferredSize.W,
		Height:    preferredSize.H,
		MinWidth:  minimumSize.W,
		MinHeight: minimumSize.H,
		AssetServer: &assetserver.Options{
			Assets:  o.Assets,
			Handler: app.MediaHandler(app.MediaRoot(o.DataDir)),
		},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 249, A: 255},
		OnStartup: func(ctx context.Context) {
			o.Services.SetEmitter(emitter{ctx})
			win.attach(ctx)
			if o.Smoke {
				go func() {
					smokeErr = win.smokeCheck(ctx, o.SmokeTimeout)
					close(smokeDone)
					runtime.Quit(ctx)
				}()
			}
		},
		OnDomReady: func(ctx context.Context) { win.fitOnce(ctx, o.Log) },
		OnShutdown: func(context.Context) { o.Services.Shutdown() },
		Bind:       o.Services.Bind(),
		// A bound method's error reaches the window as {"kind", "message", "path"}, exactly
		// as `serve` sends it, so the UI handles both transports' errors alike.
		ErrorFormatter: func(err error) any { return apierror.Of(err) },
	})
	if err != nil {
		return fmt.Errorf("the desktop window could not start: %w (build it with scripts/build.sh; on Linux it needs WebKitGTK 4.1, which scripts/setup.sh installs)", err)
	}
	if o.Smoke {
		select {
		case <-smokeDone:
		default:
			return fmt.Errorf("smoke: the window closed before the smoke test ended")
		}
		if smokeErr != nil {
			return smokeErr
		}
		fmt.Fprintln(o.Log, "smoke: the window opened wholly on its screen and its UI reached the backend")
	}
	return nil
}
