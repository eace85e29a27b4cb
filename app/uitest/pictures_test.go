package uitest

import (
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestBeforeAfterIsTheMainView runs "Saves normally" and "Renamed button, exact names" and
// looks at their pictures as a person would: at 1280×720 the submit's before and after, side
// by side with the target drawn, are each at least 200 px tall (they were 157), and at
// 1920×1080 at least 280 (they were 235); a miss's near-miss labels and its long error leave
// its pictures as tall as a plain step's; at 100 % and 200 % the pane opens centred on the
// target, which is in view, not at the page's top left.
func TestBeforeAfterIsTheMainView(t *testing.T) {
	page := openPage(t, newServer(t))
	resize(t, page, 1280, 720)
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
	before := trace.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: "Before screenshot"})
	after := trace.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: "After screenshot"})
	runAttempt(t, page, "Saves normally", "completed")
	press(t, page, "End", headings[4])
	press(t, page, "ArrowLeft", headings[3])
	must(t, "see the target drawn", expect.Locator(trace.GetByTestId("target-box").First()).ToBeVisible())

	plain := shownHeight(t, before)
	plainEnded := height(t, trace.GetByTestId("ended"))
	if a := shownHeight(t, after); plain < 200 || a < 200 {
		t.Errorf("at 1280×720 the pictures are %.0f and %.0f px tall, want 200 or more", plain, a)
	}
	noScroll(t, page)
	snap(t, page, "before-after")

	t.Run("zoomed, the pane is centred on the target", func(t *testing.T) {
		for _, z := range []string{"100%", "200%"} {
			must(t, "zoom to "+z, button(page, z).Click())
			// The picture's own box: while the zoomed picture loads anew, the first box of
			// the trace may be one drawn elsewhere.
			box := trace.Locator(".shot-area").GetByTestId("target-box").First()
			must(t, "see the target in view at "+z, expect.Locator(box).ToBeInViewport())
			off, err := box.Evaluate(`b => {
				const area = b.closest(".shot-area").getBoundingClientRect(), r = b.getBoundingClientRect();
				return [Math.abs((r.left + r.right) / 2 - (area.left + area.right) / 2) / area.width,
					Math.abs((r.top + r.bottom) / 2 - (area.top + area.bottom) / 2) / area.height];
			}`, nil)
			must(t, "measure the target's place", err)
			// Centred, unless the target lies too near the page's edge for the pane to scroll so far.
			if o := off.([]any); toFloat(o[0]) > 0.3 && toFloat(o[1]) > 0.3 {
				t.Errorf("at %s the target's centre is %.2f and %.2f of the pane from its middle, want it centred", z, toFloat(o[0]), toFloat(o[1]))
			}
		}
		snap(t, page, "before-after-200")
		must(t, "back to fit", button(page, "Fit").Click())
	})

	t.Run("at 1920×1080 each picture is taller than it was", func(t *testing.T) {
		resize(t, page, 1920, 1080)
		if b, a := shownHeight(t, before), shownHeight(t, after); b < 280 || a < 280 {
			t.Errorf("at 1920×1080 the pictures are %.0f and %.0f px tall, want 280 or more", b, a)
		}
		snap(t, page, "before-after-1080")
		resize(t, page, 1280, 720)
	})

	t.Run("near-miss labels do not shrink the picture", func(t *testing.T) {
		runAttempt(t, page, "Renamed button, exact names", "failed")
		expectText(t, page.GetByTestId("step-heading"), "Step 1 of 1: Open reservation dialog")
		must(t, "see the candidates drawn", expect.Locator(trace.GetByTestId("candidate-box").First()).ToBeVisible())
		// Why it ended is in full, wrapped: its second line is the only room the miss may take.
		longer := height(t, trace.GetByTestId("ended")) - plainEnded
		if b := shownHeight(t, before); b < plain-longer-2 {
			t.Errorf("the miss's picture is %.0f px tall, a plain step's %.0f (why it ended takes %.0f px more)", b, plain, longer)
		}
		snap(t, page, "near-miss")
		noScroll(t, page)
	})
}

// height is how tall l is drawn, in CSS px.
func height(t *testing.T, l playwright.Locator) float64 {
	t.Helper()
	h, err := l.Evaluate(`e => e.getBoundingClientRect().height`, nil)
	must(t, "measure an element", err)
	return toFloat(h)
}

// shownHeight is how tall img's picture is drawn, in CSS px: fitted, its natural proportions
// contained in the element; it waits until the image has loaded.
func shownHeight(t *testing.T, img playwright.Locator) float64 {
	t.Helper()
	var h float64
	// The image may be replaced while it loads (a resize re-reads it): measure afresh a bounded number of times.
	for k := 0; k < 10 && h == 0; k++ {
		must(t, "see the picture", expect.Locator(img).ToBeVisible())
		v, err := img.Evaluate(`async (img) => {
			// Loaded, and laid out after a resize: wait a bounded number of frames for both.
			for (let k = 0; k < 60 && !(img.isConnected && img.naturalWidth && img.clientHeight); k++) await new Promise((ok) => requestAnimationFrame(ok));
			if (!img.naturalWidth) return 0;
			const r = img.naturalWidth / img.naturalHeight;
			return Math.min(img.clientWidth, img.clientHeight * r) / r;
		}`, nil)
		must(t, "measure the picture", err)
		h = toFloat(v)
	}
	return h
}
