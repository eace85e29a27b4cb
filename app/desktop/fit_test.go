package desktop

import (
	"testing"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

func TestFitSize(t *testing.T) {
	for _, c := range []struct {
		name          string
		screen        size
		window, least size
	}{
		{"a large screen keeps the preferred size", size{1920, 1080}, size{1440, 920}, size{1000, 640}},
		{"the preferred size exactly", size{1440, 920}, size{1440, 920}, size{1000, 640}},
		{"1280×720 without a window manager", size{1280, 720}, size{1280, 720}, size{1000, 640}},
		{"a laptop's 1366×768", size{1366, 768}, size{1366, 768}, size{1000, 640}},
		{"wide but short", size{2560, 700}, size{1440, 700}, size{1000, 640}},
		{"smaller than the minimum", size{1024, 600}, size{1024, 600}, size{1000, 600}},
	} {
		t.Run(c.name, func(t *testing.T) {
			window, least := fitSize(preferredSize, minimumSize, c.screen)
			if window != c.window || least != c.least {
				t.Errorf("on %s: window %s, minimum %s; want %s, %s", c.screen, window, least, c.window, c.least)
			}
			if !window.fits(c.screen) || !least.fits(window) {
				t.Errorf("on %s: window %s or minimum %s does not fit", c.screen, window, least)
			}
		})
	}
}

func TestScreenOf(t *testing.T) {
	screen := func(w, h int, current, primary bool) runtime.Screen {
		s := runtime.Screen{IsCurrent: current, IsPrimary: primary}
		s.Size.Width, s.Size.Height = w, h
		return s
	}
	for _, c := range []struct {
		name    string
		screens []runtime.Screen
		want    size
		ok      bool
	}{
		{"the current screen first", []runtime.Screen{screen(1920, 1080, false, true), screen(1280, 720, true, false)}, size{1280, 720}, true},
		{"else the primary one", []runtime.Screen{screen(1920, 1080, false, false), screen(1366, 768, false, true)}, size{1366, 768}, true},
		{"else the first", []runtime.Screen{screen(1600, 1000, false, false), screen(1366, 768, false, false)}, size{1600, 1000}, true},
		{"none", nil, size{}, false},
		{"an empty size", []runtime.Screen{screen(0, 0, true, true)}, size{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := screenOf(c.screens)
			if got != c.want || ok != c.ok {
				t.Errorf("screenOf = %s, %v; want %s, %v", got, ok, c.want, c.ok)
			}
		})
	}
}
