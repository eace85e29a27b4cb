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
	"sync/atomic"
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
	// Smoke quits with success as soon as the frontend has called the backend, and fails
	// after SmokeTimeout otherwise: the CI check that the real window works end to end.
	Smoke        bool
	SmokeTimeout time.Duration
	Log          io.Writer
}

// emitter sends events through the Wails runtime.
type emitter struct{ ctx context.Context }

func (e emitter) Emit(name string, data any) { runtime.EventsEmit(e.ctx, name, data) }

// Window is the desktop window's handle for the services: it hears the UI's first call
// (quitting in smoke mode) and opens native file dialogs.
type Window struct {
	mu    sync.Mutex
	ctx   context.Context
	smoke bool
	ready chan struct{}
	once  sync.Once
}

var _ app.Dialogs = (*Window)(nil)

// NewWindow makes a window handle; smoke says whether the UI's first call ends the program.
func NewWindow(smoke bool) *Window { return &Window{smoke: smoke, ready: make(chan struct{})} }

// Ready records that the UI called in; it is the Session service's OnReady hook.
func (win *Window) Ready() {
	win.once.Do(func() { close(win.ready) })
	win.mu.Lock()
	ctx := win.ctx
	win.mu.Unlock()
	if win.smoke && ctx != nil {
		runtime.Quit(ctx)
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
	var timedOut atomic.Bool
	err := wails.Run(&options.App{
		Title:     "Observatory",
		Width:     1440,
		Height:    920,
		MinWidth:  1000,
		MinHeight: 640,
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
					select {
					case <-win.ready:
						runtime.Quit(ctx) // in case it fired before the context was attached
					case <-time.After(o.SmokeTimeout):
						timedOut.Store(true)
						runtime.Quit(ctx)
					}
				}()
			}
		},
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
		case <-win.ready:
			fmt.Fprintln(o.Log, "smoke: the window opened and its UI reached the backend")
			return nil
		default:
		}
		if timedOut.Load() {
			return fmt.Errorf("smoke: the UI did not call the backend within %s", o.SmokeTimeout)
		}
		return fmt.Errorf("smoke: the window closed before its UI called the backend")
	}
	return nil
}
