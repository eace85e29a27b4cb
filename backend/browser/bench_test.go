package browser

import (
	"context"
	"fmt"
	"strings"
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

// BenchmarkObserveLargePage measures Observe on a page of 1,500 table rows, each with a
// labelled field and a button (about 9,000 elements): "unchanged" observes a page that has not
// changed since the last observation (the script finds it unchanged and the sample is
// reused, see Page.reusable), "changed" one the executor has just acted on (sampled afresh).
func BenchmarkObserveLargePage(b *testing.B) {
	var html strings.Builder
	html.WriteString("<!doctype html><title>Orders</title><form><table><tbody>")
	for i := range 1500 {
		fmt.Fprintf(&html, "<tr><td>Order %d</td><td><label>Quantity %d <input value=%d></label></td>"+
			"<td><button type=button>Edit %d</button></td></tr>", i, i, i, i)
	}
	html.WriteString("</tbody></table></form>")
	page, err := testBrowser(b).NewPage(context.Background(), agent.PageOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _, _ = page.Close() })
	p := page.(*Page)
	if err := p.Goto(context.Background(), "data:text/html,"+html.String()); err != nil {
		b.Fatal(err)
	}
	for _, changed := range []bool{false, true} {
		b.Run(map[bool]string{false: "unchanged", true: "changed"}[changed], func(b *testing.B) {
			mustObserve(b, p)
			for b.Loop() {
				if changed {
					p.actedOn()
				}
				mustObserve(b, p)
			}
		})
	}
}
