package browser

import (
	"context"
	"testing"

	"observatory/backend/agent"
)

// BenchmarkObserve measures one Observe round trip on the test lab with its dialog open.
func BenchmarkObserve(b *testing.B) {
	page := openLab(b, agent.PageOptions{})
	mustAct(b, page, agent.ActClick, "button", "New booking", "")
	ctx := context.Background()
	for b.Loop() {
		if _, err := page.Observe(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkObserveWithScreenshot measures Observe when it also stores a (deduplicated) frame.
func BenchmarkObserveWithScreenshot(b *testing.B) {
	page := openLab(b, agent.PageOptions{MediaDir: b.TempDir(), Media: agent.Media{Screenshots: true}})
	ctx := context.Background()
	for b.Loop() {
		if _, err := page.Observe(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScreenshot measures taking one frame of the viewport, as Observe does when the
// page changed.
func BenchmarkScreenshot(b *testing.B) {
	page := openLab(b, agent.PageOptions{MediaDir: b.TempDir(), Media: agent.Media{Screenshots: true}}).(*Page)
	ctx := context.Background()
	for b.Loop() {
		if _, err := page.capture(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
