package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// titledServer serves /N as a page titled "Page N".
func titledServer(tb testing.TB) string {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<!doctype html><title>Page %s</title><p>%s</p>", strings.TrimPrefix(r.URL.Path, "/"), r.URL.Path)
	}))
	tb.Cleanup(srv.Close)
	return srv.URL
}

// openTabs opens a page on /1 and n-1 more tabs on /2…/n, the last one driven.
func openTabs(tb testing.TB, n int) (*Page, string) {
	tb.Helper()
	base := titledServer(tb)
	page, err := testBrowser(tb).NewPage(context.Background(), agent.PageOptions{})
	if err != nil {
		tb.Fatalf("new page: %v", err)
	}
	tb.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(context.Background(), base+"/1"); err != nil {
		tb.Fatalf("goto: %v", err)
	}
	for i := 2; i <= n; i++ {
		mustAct(tb, page, agent.ActTabNew, "", "", fmt.Sprintf("%s/%d", base, i))
	}
	return page.(*Page), base
}

// The tabs list every open tab in order with its title as it is now: a title the page's
// script sets, with no navigation, is read at the next listing, never an earlier one.
func TestTabsReadEveryTitleAsItIsNow(t *testing.T) {
	p, base := openTabs(t, 3)
	ctx := context.Background()
	want := func(titles ...string) {
		t.Helper()
		tabs, err := p.Tabs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i, tab := range tabs {
			got = append(got, fmt.Sprintf("%s %s %v", tab.Title, strings.TrimPrefix(tab.URL, base), tab.Current))
			if tab.URL != fmt.Sprintf("%s/%d", base, i+1) {
				t.Errorf("tab %d at %s", i, tab.URL)
			}
		}
		if strings.Join(got, "; ") != strings.Join(titles, "; ") {
			t.Errorf("tabs: %q\nwant %q", got, titles)
		}
	}
	want("Page 1 /1 false", "Page 2 /2 false", "Page 3 /3 true")
	if _, err := p.Evaluate(ctx, agent.Action{Kind: agent.ActEvaluate, Value: `() => { document.title = "Renamed"; }`}); err != nil {
		t.Fatal(err)
	}
	want("Page 1 /1 false", "Page 2 /2 false", "Renamed /3 true")
	mustAct(t, p, agent.ActTabSelect, "", "", "0")
	want("Page 1 /1 true", "Page 2 /2 false", "Renamed /3 false")
}

// BenchmarkTabs measures listing the tabs, as every MCP reply does: one tab, and four.
func BenchmarkTabs(b *testing.B) {
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("%d-tabs", n), func(b *testing.B) {
			p, _ := openTabs(b, n)
			for b.Loop() {
				if _, err := p.Tabs(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
