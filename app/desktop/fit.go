package desktop

import (
	"context"
	"fmt"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// size is a width and height in logical pixels, as Wails sizes windows.
type size struct{ W, H int }

func (s size) fits(in size) bool { return s.W <= in.W && s.H <= in.H }

func (s size) String() string { return fmt.Sprintf("%d×%d", s.W, s.H) }

// The window's size where the screen has room for it, and the smallest it may be made.
var (
	preferredSize = size{1440, 920}
	minimumSize   = size{1000, 640}
)

// fitSize returns the window's size on a screen: the preferred size cut to the screen in
// each direction, and a minimum that is never larger than that (a screen smaller than the
// minimum still shows the whole window).
func fitSize(preferred, minimum, screen size) (window, least size) {
	window = size{min(preferred.W, screen.W), min(preferred.H, screen.H)}
	least = size{min(minimum.W, window.W), min(minimum.H, window.H)}
	return window, least
}

// screenOf returns the screen the window opened on (else the primary one, else the first);
// false when Wails reports none.
func screenOf(screens []runtime.Screen) (size, bool) {
	pick := -1
	for i, s := range screens {
		if s.IsCurrent {
			pick = i
			break
		}
		if s.IsPrimary && pick < 0 {
			pick = i
		}
	}
	if pick < 0 && len(screens) > 0 {
		pick = 0
	}
	if pick < 0 || screens[pick].Size.Width <= 0 || screens[pick].Size.Height <= 0 {
		return size{}, false
	}
	return size{screens[pick].Size.Width, screens[pick].Size.Height}, true
}

// currentScreen returns every screen and the size of the one the window is on.
func currentScreen(ctx context.Context) ([]runtime.Screen, size, error) {
	screens, err := runtime.ScreenGetAll(ctx)
	if err != nil {
		return nil, size{}, fmt.Errorf("reading the screens: %w", err)
	}
	screen, ok := screenOf(screens)
	if !ok {
		return nil, size{}, fmt.Errorf("reading the screens: Wails reported none with a size")
	}
	return screens, screen, nil
}

// fitScreen makes a window that opened larger than its screen fit it and centres it there.
// Wails reports a screen's whole area, not its work area without panels; a window manager
// keeps a window of the screen's size inside its work area, and without one (a kiosk, Xvfb)
// the two are the same.
func fitScreen(ctx context.Context) error {
	_, screen, err := currentScreen(ctx)
	if err != nil {
		return err
	}
	if preferredSize.fits(screen) {
		return nil // Wails opened it centred at its own size
	}
	window, least := fitSize(preferredSize, minimumSize, screen)
	if least != minimumSize {
		runtime.WindowSetMinSize(ctx, least.W, least.H)
	}
	// GTK already keeps a window within its screen's size, only its place is off; Wails sets
	// a size from the calling goroutine there, so it is asked only when needed.
	if !windowSize(ctx).fits(window) {
		runtime.WindowSetSize(ctx, window.W, window.H)
		// The new size takes effect when the window system confirms it; centring before
		// that would place the old size.
		deadline := time.Now().Add(2 * time.Second)
		for !windowSize(ctx).fits(window) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	runtime.WindowCenter(ctx)
	return nil
}

// windowSize is the window's size as the window system last confirmed it.
func windowSize(ctx context.Context) size {
	w, h := runtime.WindowGetSize(ctx)
	return size{w, h}
}

// checkFits says where the window is not wholly on its screen (the smoke test's check); with
// several screens only the size is checked, as Wails reports no screen's position.
func checkFits(ctx context.Context) error {
	screens, screen, err := currentScreen(ctx)
	if err != nil {
		return err
	}
	window := windowSize(ctx)
	if !window.fits(screen) {
		return fmt.Errorf("the window is %s, larger than its %s screen", window, screen)
	}
	if len(screens) == 1 {
		x, y := runtime.WindowGetPosition(ctx)
		if x < 0 || y < 0 || x+window.W > screen.W || y+window.H > screen.H {
			return fmt.Errorf("the %s window at (%d, %d) is not wholly on its %s screen", window, x, y, screen)
		}
	}
	return nil
}
