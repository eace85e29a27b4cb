package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"observatory/backend/agent"
)

// TestAnIframeIsNamedOnlyByWhatNoOtherFrameShares: two ad frames share a title and a page
// frame has its own; a frame path takes the first frame a name matches, so the ads are named
// by their refs and the payment frame by its title.
func TestAnIframeIsNamedOnlyByWhatNoOtherFrameShares(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`<!doctype html><title>Shop</title>
<iframe title="Ad" srcdoc="<button>Open</button>"></iframe>
<iframe title="Ad" srcdoc="<button>Open</button>"></iframe>
<iframe title="Payment" name="pay" srcdoc="<button>Pay</button>"></iframe>`))
	}))
	defer srv.Close()
	ctx := context.Background()
	pg, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = pg.Close() }()
	if err := pg.Goto(ctx, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	p := pg.(*Page)
	snap, err := p.AriaSnapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	refs := regexp.MustCompile(`- iframe \[ref=(e\d+)\]`).FindAllStringSubmatch(snap, -1)
	if len(refs) != 3 {
		t.Fatalf("want three iframes in the snapshot:\n%s", snap)
	}
	want := []agent.FrameRef{{CSS: "aria-ref=" + refs[0][1]}, {CSS: "aria-ref=" + refs[1][1]}, {Title: "Payment"}}
	for i, r := range refs {
		got, err := p.FrameOf(ctx, r[1])
		if err != nil || got != want[i] {
			t.Errorf("frame %d (%s): %+v, %v; want %+v", i+1, r[1], got, err, want[i])
		}
	}
}
