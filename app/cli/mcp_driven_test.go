//go:build linux

package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

// boardPage is a board whose card is dragged onto its Done column, cleared after a confirm
// dialog, and which shows its window's size; /other is a second page for a second tab.
const boardPage = `<!doctype html><title>Board</title>
<main><h1>Board</h1>
<div id="card" draggable="true" role="button" aria-label="Card" style="width:120px;height:40px;background:#eee">Card</div>
<section id="done" aria-label="Done column" style="width:300px;height:120px;border:1px solid">Done</section>
<button id="clear">Clear card</button> <button id="rename">Rename card</button>
<p role="status" id="status"></p><p id="size"></p></main>
<script>
const card = document.getElementById("card"), done = document.getElementById("done"), status = document.getElementById("status");
card.addEventListener("dragstart", e => e.dataTransfer.setData("text/plain", "card"));
done.addEventListener("dragover", e => e.preventDefault());
done.addEventListener("drop", e => { e.preventDefault(); done.appendChild(card); status.textContent = "Card moved to Done"; });
document.getElementById("clear").addEventListener("click", () => {
  status.textContent = confirm("Delete the card?") ? "Card cleared" : "Card kept";
});
document.getElementById("rename").addEventListener("click", () => {
  const name = prompt("New name?", "Card");
  document.getElementById("size").textContent = name === null ? "Rename cancelled" : "Renamed to " + name;
});
addEventListener("resize", () => { document.getElementById("size").textContent = "Window " + innerWidth + "x" + innerHeight; });
</script>`

// boardSite serves boardPage, and a second page at /other, until the test ends.
func boardSite(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/other" {
			_, _ = io.WriteString(w, "<!doctype html><title>Other</title><h1>Another page</h1>")
			return
		}
		_, _ = io.WriteString(w, boardPage)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// boardTask is a task on a board served at url, done once the card is cleared.
func boardTask(t *testing.T, url string) string {
	t.Helper()
	task := filepath.Join(t.TempDir(), "task.yaml")
	if err := os.WriteFile(task, []byte(fmt.Sprintf(`schema: observatory.task/v1
name: board
intent: Move the card to Done, then clear it.
start_url: %s/
config: {budget: 20}
success:
  - id: cleared
    page: {text: "Card cleared"}
`, url)), 0o644); err != nil {
		t.Fatal(err)
	}
	return task
}

// TestMCPDragResizeTabsCloseAndADialogAreRecordedSteps: browser_drag and browser_resize act on
// the page as steps through the harness; browser_tabs opens, selects and closes tabs of the
// attempt's context, each step's page saying which tab it was read from; browser_close closes
// them and the attempt goes on, the next navigation on a fresh page; a click that opens a
// confirm leaves it open, as Playwright MCP does: the reply lists the modal state, other tools
// are refused until browser_handle_dialog accepts it, and that answer is a step of its own,
// classified by what it confirms (deleting the card: a destruct). A prompt is answered with
// promptText, or dismissed. Each step is recorded with the page before and after it, and the
// gate judges the attempt as it ends.
func TestMCPDragResizeTabsCloseAndADialogAreRecordedSteps(t *testing.T) {
	browsertest.Ready(t)
	srv := boardSite(t)
	dataDir := t.TempDir()
	cs, stop, _, _ := mcpOverHTTP(t, nil, boardTask(t, srv.URL), "--data-dir", dataDir, "--no-video")

	page, _ := callTool(t, cs, "browser_snapshot", nil)
	text, res := callTool(t, cs, "browser_drag", map[string]any{"startElement": "Card", "startTarget": refOf(t, page, "button", "Card"),
		"endElement": "Done column", "endTarget": refOf(t, page, "region", "Done column")})
	if res.IsError || !strings.Contains(text, "Card moved to Done") || !strings.Contains(text, ".dragTo(") {
		t.Errorf("dragging the card onto Done:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_resize", map[string]any{"width": 800, "height": 600})
	if res.IsError || !strings.Contains(text, "setViewportSize({ width: 800, height: 600 })") { // the page hears it a frame later
		t.Errorf("resizing to 800x600:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_tabs", map[string]any{"action": "new", "url": srv.URL + "/other"})
	if res.IsError || !strings.Contains(text, "- 1: (current) [Other]("+srv.URL+"/other)") || !strings.Contains(text, "Another page") {
		t.Errorf("opening a second tab:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_tabs", map[string]any{"action": "select", "index": 0})
	if res.IsError || !strings.Contains(text, "- 0: (current) [Board]") || !strings.Contains(text, "Card moved to Done") {
		t.Errorf("selecting the first tab again:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_tabs", map[string]any{"action": "close", "index": 1})
	if res.IsError || strings.Contains(text, "### Open tabs") || !strings.Contains(text, "- Page Title: Board") {
		t.Errorf("closing the second tab:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_close", nil)
	if res.IsError || !strings.Contains(text, "- Page URL: about:blank") || strings.Contains(text, "ended") {
		t.Errorf("closing the browser's tabs:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_navigate", map[string]any{"url": srv.URL + "/"})
	if res.IsError || !strings.Contains(text, "- Page Title: Board") || strings.Contains(text, "Card moved to Done") {
		t.Errorf("navigating after the close, on a fresh page of the same attempt:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_click", map[string]any{"element": "Clear card", "target": refOf(t, text, "button", "Clear card")})
	modal := "### Modal state\n- [\"confirm\" dialog with message \"Delete the card?\"]: can be handled by browser_handle_dialog\n"
	if res.IsError || !strings.Contains(text, modal) || strings.Contains(text, "### Snapshot") {
		t.Errorf("a click that opens a confirm:\n%s\nwant its modal state", text)
	}
	text, res = callTool(t, cs, "browser_snapshot", nil)
	if !res.IsError || !strings.Contains(text, `Error: Tool "browser_snapshot" does not handle the modal state.`) || !strings.Contains(text, modal) {
		t.Errorf("a snapshot under the confirm:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_handle_dialog", map[string]any{"accept": true})
	if res.IsError || !strings.Contains(text, "Card cleared") || strings.Contains(text, "### Modal state") {
		t.Errorf("accepting the confirm:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_handle_dialog", map[string]any{"accept": true})
	if !res.IsError || !strings.Contains(text, "can only be used when there is related modal state present") {
		t.Errorf("answering a dialog no longer open:\n%s", text)
	}
	rename := func() {
		page, _ := callTool(t, cs, "browser_snapshot", nil)
		text, res := callTool(t, cs, "browser_click", map[string]any{"element": "Rename card", "target": refOf(t, page, "button", "Rename card")})
		if res.IsError || !strings.Contains(text, `- ["prompt" dialog with message "New name?"]: can be handled by browser_handle_dialog`) {
			t.Errorf("a click that opens a prompt:\n%s", text)
		}
	}
	rename()
	text, res = callTool(t, cs, "browser_handle_dialog", map[string]any{"accept": true, "promptText": "Done card"})
	if res.IsError || !strings.Contains(text, "Renamed to Done card") {
		t.Errorf("answering the prompt:\n%s", text)
	}
	rename()
	text, res = callTool(t, cs, "browser_handle_dialog", map[string]any{"accept": false})
	if res.IsError || !strings.Contains(text, "Rename cancelled") {
		t.Errorf("dismissing the prompt:\n%s", text)
	}
	if got := claimDone(t, cs, "Moved and cleared."); !got.Gate.Done {
		t.Errorf("task_done once the card is cleared: %+v", got)
	}
	said := stop()

	run := sessionRun(t, dataDir)
	if len(run.Attempts) != 1 {
		t.Fatalf("%d attempts, want 1:\n%s", len(run.Attempts), said)
	}
	at := run.Attempts[0]
	if at.Terminal != agent.Completed {
		t.Errorf("the attempt ended %s (%s), want completed", at.Terminal, at.Reason)
	}
	steps := map[agent.ActionKind]agent.Step{}
	for _, st := range at.Steps {
		if _, seen := steps[st.Action.Kind]; !seen {
			steps[st.Action.Kind] = st
		}
	}
	if st, ok := steps[agent.ActDrag]; !ok || st.Error != "" || st.Action.To == nil || *st.Action.To != (agent.Target{Role: "region", Name: "Done column"}) ||
		strings.Contains(st.Before.Text, "Card moved to Done") || !strings.Contains(st.After.Text, "Card moved to Done") || st.Decision.Contract != agent.ContractMutate {
		t.Errorf("the drag's step: %+v", st)
	}
	if st, ok := steps[agent.ActResize]; !ok || st.Error != "" || st.Action.Value != "800x600" || st.After.Viewport == nil ||
		*st.After.Viewport != (agent.Size{Width: 800, Height: 600}) || st.Before.Viewport == nil || *st.Before.Viewport == *st.After.Viewport {
		t.Errorf("the resize's step: %+v", st)
	}
	if st, ok := steps[agent.ActTabNew]; !ok || st.Error != "" || st.Before.Tab != 0 || st.After.Tab != 1 || st.After.URL != srv.URL+"/other" {
		t.Errorf("the new tab's step: %+v", st)
	}
	if st, ok := steps[agent.ActTabSelect]; !ok || st.Error != "" || st.Action.Value != "0" || st.Before.Tab != 1 || st.After.Tab != 0 ||
		!strings.Contains(st.After.Text, "Card moved to Done") {
		t.Errorf("the tab selection's step: %+v", st)
	}
	if st, ok := steps[agent.ActTabClose]; !ok || st.Error != "" || st.Action.Value != "1" || st.Before.Tab != 0 || st.After.Tab != 0 || st.Before.URL != srv.URL+"/" {
		t.Errorf("the tab closing's step: %+v", st)
	}
	if st, ok := steps[agent.ActClose]; !ok || st.Error != "" || st.Before.URL != srv.URL+"/" || st.After.URL != "about:blank" || st.Decision.Contract != agent.ContractNavigate {
		t.Errorf("the close's step: %+v", st)
	}
	if st, ok := steps[agent.ActClick]; !ok || st.Error != "" || st.Before.DialogOpen || !st.After.DialogOpen ||
		st.After.Notice != "confirm dialog: Delete the card?" || st.After.JSDialog == nil || st.After.JSDialog.Type != "confirm" ||
		st.After.URL != srv.URL+"/" || st.After.Title != "Board" {
		t.Errorf("the click that opened the confirm: %+v", st)
	}
	var answered agent.Step
	for _, st := range at.Steps {
		if st.Action.Kind == agent.ActDialogAccept && st.Before.JSDialog != nil && st.Before.JSDialog.Type == "prompt" {
			answered = st
		}
	}
	if answered.Action.Value != "Done card" || answered.Error != "" || answered.Before.JSDialog.Default != "Card" || answered.Decision.Contract != agent.ContractMutate ||
		!strings.Contains(answered.After.Text, "Renamed to Done card") {
		t.Errorf("the prompt's answer: %+v", answered)
	}
	if st, ok := steps[agent.ActDialogDismiss]; !ok || st.Error != "" || !st.Before.DialogOpen || !strings.Contains(st.After.Text, "Rename cancelled") {
		t.Errorf("the prompt's dismissal: %+v", st)
	}
	if st, ok := steps[agent.ActDialogAccept]; !ok || st.Error != "" || !st.Before.DialogOpen || st.After.DialogOpen ||
		st.Before.JSDialog == nil || st.Before.JSDialog.Message != "Delete the card?" || st.After.JSDialog != nil ||
		st.Decision.Contract != agent.ContractIrreversible || st.Decision.Class != agent.ClassDestruct ||
		!strings.Contains(st.After.Text, "Card cleared") || !strings.Contains(st.Action.Description, `"Delete the card?"`) {
		t.Errorf("the confirm's answer: %+v", st)
	}
}

// boardClientSaw is what pwboard.mjs, a client written for Playwright MCP, reports.
type boardClientSaw struct {
	Dragged, Resized, Accepted, Closed bool
	Opened                             struct {
		IsError bool
		Tabs    string
	}
	Selected struct {
		IsError bool
		Page    struct{ URL, Title string }
	}
	ClosedTab struct {
		IsError bool
		Tabs    string
	}
	Modal      string
	UnderModal struct {
		IsError bool
		Error   string
	}
	Reopened struct {
		IsError bool
		Page    struct{ URL, Title string }
	}
	Done *struct {
		Gate struct{ Done bool }
	}
	Error string
}

// TestAPlaywrightMCPClientDragsTurnsTabsAndAnswersADialogOnBothServers: the same client,
// written for Playwright MCP (Node, the MCP SDK), drags, resizes, opens, selects and closes
// tabs, clears the card through its confirm, closes the browser and navigates again, against
// Playwright MCP itself (the pinned npm package) and against `observatory mcp`: both do each
// thing, and the modal state and the refusal under it read word for word alike. Against
// Observatory the run holds one attempt, which the gate judges completed.
func TestAPlaywrightMCPClientDragsTurnsTabsAndAnswersADialogOnBothServers(t *testing.T) {
	browsertest.Ready(t)
	srv := boardSite(t)
	var ref, ours boardClientSaw
	runNodeClient(t, "pwboard.mjs", playwrightMCP(t), srv.URL+"/", &ref)
	dataDir := t.TempDir()
	runNodeClient(t, "pwboard.mjs", observatoryMCP(boardTask(t, srv.URL), "--data-dir", dataDir, "--no-video"), srv.URL+"/", &ours)
	for name, saw := range map[string]boardClientSaw{"Playwright MCP": ref, "Observatory": ours} {
		if saw.Error != "" {
			t.Errorf("against %s the client failed: %s", name, saw.Error)
			continue
		}
		if !saw.Dragged || !saw.Resized || !saw.Accepted || !saw.Closed {
			t.Errorf("against %s: dragged %v, resized %v, accepted %v, closed %v", name, saw.Dragged, saw.Resized, saw.Accepted, saw.Closed)
		}
		if saw.Opened.IsError || !strings.Contains(saw.Opened.Tabs, "(current) [Other]") || saw.Selected.IsError || saw.Selected.Page.Title != "Board" ||
			saw.ClosedTab.IsError || strings.Contains(saw.ClosedTab.Tabs, "Other") {
			t.Errorf("against %s, the tabs: opened %+v, selected %+v, closed %+v", name, saw.Opened, saw.Selected, saw.ClosedTab)
		}
		if saw.Reopened.IsError || saw.Reopened.Page.Title != "Board" {
			t.Errorf("against %s, navigating after the close: %+v", name, saw.Reopened)
		}
	}
	if ours.Modal == "" || ours.Modal != ref.Modal {
		t.Errorf("the modal state: Observatory's %q, Playwright MCP's %q", ours.Modal, ref.Modal)
	}
	if !ours.UnderModal.IsError || ours.UnderModal != ref.UnderModal {
		t.Errorf("a snapshot under the dialog: Observatory's %+v, Playwright MCP's %+v", ours.UnderModal, ref.UnderModal)
	}
	t.Logf("the modal state on both servers: %q; a snapshot under it: %q", ref.Modal, ref.UnderModal.Error)
	if ref.Done != nil || ours.Done == nil || !ours.Done.Gate.Done {
		t.Errorf("task_done: Playwright MCP's %+v, Observatory's %+v", ref.Done, ours.Done)
	}
	run := sessionRun(t, dataDir)
	if len(run.Attempts) != 1 || run.Attempts[0].Terminal != agent.Completed {
		t.Fatalf("%d attempts, want one completed: %+v", len(run.Attempts), run.Attempts)
	}
}
