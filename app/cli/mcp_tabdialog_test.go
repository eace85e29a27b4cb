//go:build linux

package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"observatory/backend/browser/browsertest"
)

// laterPage asks /go every 200 ms and, once the answer is yes, opens a confirm: a dialog that
// opens while another tab is the current one. It asks for /confirming as it calls confirm, in
// the same task: once the request is sent nothing of the page's runs before the confirm, which
// the browser then tells its driver of without waiting on the page.
const laterPage = `<!doctype html><title>Later</title><h1>Later</h1><script>
const poll = setInterval(() => fetch("/go").then(r => r.text()).then(t => {
  if (t !== "yes") return;
  clearInterval(poll);
  fetch("/confirming");
  document.querySelector("h1").textContent = confirm("Leave later?") ? "Left" : "Stayed";
}), 200);
</script>`

// TestMCPADialogWaitsOnItsTab: as in Playwright MCP, a dialog belongs to its tab. A confirm a
// tab opens while another is current leaves the current one free (its replies have no modal
// state, its tools are not refused, and browser_handle_dialog finds nothing to answer); once
// browser_tabs selects the dialog's tab, the reply shows it as the modal state and
// browser_handle_dialog answers it there.
func TestMCPADialogWaitsOnItsTab(t *testing.T) {
	browsertest.Ready(t)
	var goAhead atomic.Bool
	confirming := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/later":
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, laterPage)
		case "/go":
			_, _ = io.WriteString(w, map[bool]string{true: "yes", false: "no"}[goAhead.Load()])
		case "/confirming":
			select {
			case confirming <- struct{}{}:
			default:
			}
		default:
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, boardPage)
		}
	}))
	t.Cleanup(srv.Close)
	cs, stop, _, _ := mcpOverHTTP(t, nil, boardTask(t, srv.URL), "--data-dir", t.TempDir(), "--no-video")

	callTool(t, cs, "browser_snapshot", nil)
	text, res := callTool(t, cs, "browser_tabs", map[string]any{"action": "new", "url": srv.URL + "/later"})
	if res.IsError || !strings.Contains(text, "- 1: (current) [Later]") {
		t.Fatalf("opening the later tab:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_tabs", map[string]any{"action": "select", "index": 0})
	if res.IsError || !strings.Contains(text, "- 0: (current) [Board]") {
		t.Fatalf("selecting the board again:\n%s", text)
	}
	goAhead.Store(true)
	select {
	case <-confirming:
	case <-time.After(15 * time.Second):
		t.Fatal("the later tab did not open its confirm in 15 s")
	}

	text, res = callTool(t, cs, "browser_snapshot", nil)
	if res.IsError || strings.Contains(text, "### Modal state") || !strings.Contains(text, "Clear card") {
		t.Errorf("a snapshot of the board while the later tab has a confirm:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_handle_dialog", map[string]any{"accept": true})
	if !res.IsError || !strings.Contains(text, "can only be used when there is related modal state present") {
		t.Errorf("answering on the board, which has no dialog:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_tabs", map[string]any{"action": "select", "index": 1})
	modal := "### Modal state\n- [\"confirm\" dialog with message \"Leave later?\"]: can be handled by browser_handle_dialog\n"
	// On a loaded machine the confirm may come up after the select: the next call on the tab
	// then meets it (refused, with the modal state), bounded.
	shown := !res.IsError && strings.Contains(text, modal)
	for deadline := time.Now().Add(15 * time.Second); !res.IsError && !shown && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		next, _ := callTool(t, cs, "browser_snapshot", nil)
		shown = strings.Contains(next, modal)
	}
	if res.IsError || !shown {
		t.Errorf("selecting the later tab:\n%s\nwant its confirm as the modal state", text)
	}
	text, res = callTool(t, cs, "browser_handle_dialog", map[string]any{"accept": true})
	if res.IsError || strings.Contains(text, "### Modal state") || !strings.Contains(text, "Left") {
		t.Errorf("accepting the later tab's confirm:\n%s", text)
	}
	stop()
}
