package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// notices are pages that announce "Post published." the ways real apps do, each with an
// empty live region before it, as pages keep them ready.
var notices = map[string]string{
	"status":  `<p role="status"></p><p role="status">Post published.</p>`,
	"output":  `<output></output><output>Post published.</output>`,
	"hidden":  `<div id="a11y-speak-polite" aria-live="polite" style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(1px,1px,1px,1px)">Post published.</div>`,
	"snack":   `<div aria-live="off">Draft saved.</div><div class="snackbar" aria-live="assertive">Post published.</div>`,
	"alert":   `<div role="alert"></div><div role="alert">Post published.</div>`,
	"statusf": `<div aria-live="polite">Saving…</div><p role="status">Post published.</p>`,
}

// TestTheNoticeReadsWhatThePageAnnounces observes each way of announcing: the notice is the
// announcement, from a status, an <output>, a visually hidden live region or an aria-live
// snackbar, skipping empty regions and those marked aria-live=off; a status comes before a
// live region. An alert is read as the alert, the first with text.
func TestTheNoticeReadsWhatThePageAnnounces(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	for name, body := range notices {
		mux.HandleFunc("GET /"+name, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(`<!doctype html><title>Editor</title><div aria-live="polite"></div><h1>Edit post</h1>` + body))
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	for name := range notices {
		if err := page.Goto(ctx, srv.URL+"/"+name); err != nil {
			t.Fatal(err)
		}
		s := mustObserve(t, page)
		got := s.Notice
		if name == "alert" {
			got = s.Alert
		}
		if got != "Post published." {
			t.Errorf("%s: the announcement reads %q, want %q", name, got, "Post published.")
		}
	}
}

// TestTheNoticeReadsAToastThatCameAndWent clicks Save on a page whose toast shows "Post
// published." for 200 ms: the observation once it has gone reads it all the same, and the
// next one, with nothing new announced, reads no notice.
func TestTheNoticeReadsAToastThatCameAndWent(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Editor</title><div id="toasts" aria-live="polite"></div>
<button onclick="const t = document.createElement('p'); t.textContent = 'Post published.'; toasts.append(t); setTimeout(() => t.remove(), 200)">Publish</button>`))
	}))
	t.Cleanup(srv.Close)
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	if got := mustObserve(t, page).Notice; got != "" {
		t.Errorf("before publishing the notice reads %q", got)
	}
	mustAct(t, page, agent.ActClick, "button", "Publish", "")
	waitGone(t, page, "#toasts p")
	if got := mustObserve(t, page).Notice; got != "Post published." {
		t.Errorf("after the toast went the notice reads %q, want %q", got, "Post published.")
	}
	if got := mustObserve(t, page).Notice; got != "" {
		t.Errorf("the next observation reads %q, want no notice", got)
	}
}

// TestANamedNoticeReadsItsPlace observes a page whose toasts are plain elements, no live
// region: a snackbar by CSS shows "Saved." for 200 ms after Save, a flash message by test id
// stays. Each named place reads its own text (the snackbar's once gone, then nothing), the
// page's own notice reads neither, and a selector the page cannot parse reads empty.
func TestANamedNoticeReadsItsPlace(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Expenses</title><div class="snackbar-area"></div>
<p data-testid="flash"></p>
<button onclick="const s = document.createElement('div'); s.className = 'snackbar'; s.textContent = 'Saved.'; document.querySelector('.snackbar-area').append(s); setTimeout(() => s.remove(), 200); document.querySelector('[data-testid=flash]').textContent = 'Expense added.'">Save</button>`))
	}))
	t.Cleanup(srv.Close)
	ctx := context.Background()
	places := []agent.NoticePlace{{ID: "snack", CSS: ".snackbar"}, {ID: "flash", TestID: "flash"}, {ID: "broken", CSS: "div[["}}
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Notices: places})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	read := func(want ...string) {
		t.Helper()
		s := mustObserve(t, page)
		got := make([]string, len(s.Notices))
		for i, n := range s.Notices {
			if n.ID != places[i].ID {
				t.Errorf("notice %d is %q, want %q", i, n.ID, places[i].ID)
			}
			got[i] = n.Value
		}
		if !slices.Equal(got, want) {
			t.Errorf("the named notices read %q, want %q", got, want)
		}
		if s.Notice != "" {
			t.Errorf("the page's own notice reads %q, want none", s.Notice)
		}
	}
	read("", "", "")
	mustAct(t, page, agent.ActClick, "button", "Save", "")
	waitGone(t, page, ".snackbar")
	read("Saved.", "Expense added.", "")
	read("", "Expense added.", "")
}

// waitGone waits, at most 10 s, until the page holds nothing that selector matches: a toast
// shown for a moment has gone, however late the page's timer fired.
func waitGone(t *testing.T, page agent.Page, selector string) {
	t.Helper()
	if _, err := page.(*Page).page.WaitForFunction(`(s) => !document.querySelector(s)`, selector,
		playwright.PageWaitForFunctionOptions{Timeout: playwright.Float(10_000)}); err != nil {
		t.Fatalf("%s is still on the page: %v", selector, err)
	}
}
