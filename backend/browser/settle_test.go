package browser

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// chainedPage saves, and once the save's answer is parsed asks for a confirmation whose
// answer it shows as SHOW schedules it (on the next frame, or on a short timer): the page's
// work after an answer is a request of its own and two continuations.
const chainedPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chained</title></head>
<body><main><button type="button" id="save">Save</button><p role="status" id="status"></p></main>
<script>
document.getElementById("save").addEventListener("click", async () => {
  const saved = await (await fetch("/api/save", { method: "POST", body: "{}" })).json();
  document.getElementById("status").textContent = "Saving " + saved.id;
  const confirmed = await (await fetch("/api/confirm?id=" + saved.id)).json();
  SHOW(() => { document.getElementById("status").textContent = "Saved " + confirmed.id; });
});
</script></body></html>`

// TestSettleWaitsForThePagesOwnWorkAfterAnAnswer: Settle waits for the answers and for what
// the page does with them, a request it sends only once an answer came included and an update
// it shows on the next frame or on a 60 ms timer, so the last look sees the page's final word.
func TestSettleWaitsForThePagesOwnWorkAfterAnAnswer(t *testing.T) {
	t.Parallel()
	for name, show := range map[string]string{"next frame": "requestAnimationFrame", "60 ms timer": "((f) => setTimeout(f, 60))"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			settlesChained(t, strings.Replace(chainedPage, "SHOW", show, 1))
		})
	}
}

// settlesChained saves on html five times, each time settling and looking for the
// confirmation's notice.
func settlesChained(t *testing.T, html string) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, html) })
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("POST /api/save", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond)
		_, _ = io.WriteString(w, `{"id":7}`)
	})
	mux.HandleFunc("GET /api/confirm", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		_, _ = io.WriteString(w, `{"id":`+r.URL.Query().Get("id")+`}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Origins: []string{srv.URL}})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, srv.URL); err != nil {
		t.Fatalf("goto: %v", err)
	}
	for try := range 5 { // each try a fresh save and its confirmation
		mustAct(t, page, agent.ActClick, "button", "Save", "")
		page.(agent.Settler).Settle(ctx)
		if got := mustObserve(t, page).Notice; got != "Saved 7" {
			t.Fatalf("try %d: after Settle the page says %q, want the confirmation's notice", try+1, got)
		}
		if _, err := page.(*Page).page.Evaluate(`document.getElementById("status").textContent = ""`); err != nil {
			t.Fatal(err)
		}
	}
}
