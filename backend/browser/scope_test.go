package browser

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// openInvoices serves testdata/invoices.html with its payment frame and the verify frame
// nested in it, and opens it.
func openInvoices(tb testing.TB) agent.Page {
	tb.Helper()
	mux := http.NewServeMux()
	for path, file := range map[string]string{"/{$}": "invoices.html", "/payment": "payment.html", "/verify": "verify.html"} {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, "testdata/"+file) })
	}
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	page, err := testBrowser(tb).NewPage(context.Background(), agent.PageOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(context.Background(), srv.URL+"/"); err != nil {
		tb.Fatal(err)
	}
	return page
}

// TestTargetsReachIntoRowsFramesAndShadowRoots acts where real pages put their controls: the
// Delete button of one row (ambiguous without its row), a field in an iframe and a button in
// an iframe nested in it, and a button in a shadow root. The observation sees inside the
// frames and the shadow root.
func TestTargetsReachIntoRowsFramesAndShadowRoots(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	page := openInvoices(t)
	deleteButton := agent.Target{Role: "button", Name: "Delete"}
	if err := page.Resolve(ctx, deleteButton); !errors.Is(err, agent.ErrAmbiguousTarget) {
		t.Errorf("a Delete button of no row: %v, want ambiguous", err)
	}
	payment := agent.FrameRef{Title: "Payment"}
	for _, a := range []agent.Action{
		{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Delete", Within: agent.Container{Role: "row", Name: "Invoice 42"}}},
		{Kind: agent.ActFill, Target: agent.Target{Label: "Card number", Frames: agent.FramePath{payment}}, Value: "4242"},
		{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Confirm", Frames: agent.FramePath{payment, {Title: "Verify"}}}},
		{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Accept cookies"}},
	} {
		if err := page.Resolve(ctx, a.Target); err != nil {
			t.Errorf("resolve %s: %v", a.Target, err)
			continue
		}
		if err := page.Act(ctx, a); err != nil {
			t.Errorf("%s %s: %v", a.Kind, a.Target, err)
		}
	}
	s := mustObserve(t, page)
	if len(s.Rows) != 1 || s.Rows[0][0] != "Invoice 41" {
		t.Errorf("rows %v, want only Invoice 41 left", s.Rows)
	}
	for _, want := range []agent.RoleName{{Role: "button", Name: "Confirm"}, {Role: "button", Name: "Accept cookies"}} {
		if !slices.Contains(s.Pairs, want) {
			t.Errorf("the observation lacks %s %q: %v", want.Role, want.Name, s.Pairs)
		}
	}
	if !slices.ContainsFunc(s.Fields, func(f agent.Field) bool { return f.Name == "Card number" && f.Value == "4242" }) {
		t.Errorf("the observation lacks the framed field: %+v", s.Fields)
	}
	for _, want := range []string{"Verified", "Cookies accepted."} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("the page's text lacks %q: %q", want, s.Text)
		}
	}
	if got := (agent.Target{Role: "button", Name: "Confirm", Frames: agent.FramePath{payment, {Title: "Verify"}}}).String(); got != `button[Confirm] in frame "Verify" in frame "Payment"` {
		t.Errorf("the target reads %s", got)
	}
}
