package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// openTestPage serves testdata/<name> at / (and hostile downloads under /download/) and opens
// it in a new page with opts.
func openTestPage(tb testing.TB, name string, opts agent.PageOptions) agent.Page {
	tb.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, filepath.Join("testdata", name)) })
	mux.HandleFunc("GET /download/{name}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="`+r.URL.Query().Get("as")+`"`)
		_, _ = w.Write([]byte("contents of " + r.PathValue("name")))
	})
	mux.HandleFunc("POST /upload", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	page, err := testBrowser(tb).NewPage(context.Background(), opts)
	if err != nil {
		tb.Fatalf("new page: %v", err)
	}
	tb.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(context.Background(), srv.URL+"/"); err != nil {
		tb.Fatalf("goto: %v", err)
	}
	return page
}

// TestObserveFlagsUnreadableAreas checks the detector on a page with a drawn board, a block
// of unlabelled cells, a block of labelled ones, and decorative canvases: hidden from
// assistive technology, presentational, transparent and small.
func TestObserveFlagsUnreadableAreas(t *testing.T) {
	t.Parallel()
	page := openTestPage(t, "unreadable.html", agent.PageOptions{})
	s := mustObserve(t, page)
	var got []string
	for _, r := range s.Unreadable {
		got = append(got, r.Kind+" "+r.What)
		if r.W < 100 || r.H < 100 {
			t.Errorf("region %s is %d×%d, want a large one", r.What, r.W, r.H)
		}
	}
	want := []string{"canvas canvas#board", "unlabelled div#grid with 64 unlabelled elements"}
	if !slices.Equal(got, want) {
		t.Errorf("unreadable regions %q, want %q", got, want)
	}
}

// TestOffscreenControlsArePressedFromTheKeyboard clicks a button placed off-screen, one
// clipped to a pixel, one inside a one-pixel wrapper, a plain one, and one the plain one
// shows 2.5 s later: the first three are pressed the way a keyboard user would, the last
// two clicked (the late one once it shows: having no box yet is no sign of being out of
// reach), and each press reaches its button.
func TestOffscreenControlsArePressedFromTheKeyboard(t *testing.T) {
	t.Parallel()
	page := openTestPage(t, "offscreen.html", agent.PageOptions{})
	for _, name := range []string{"Accessible mode", "Skip to content", "High contrast", "Plain button"} {
		mustAct(t, page, agent.ActClick, "button", name, "")
	}
	// By CSS, which matches the late button while it is still hidden (a role does not).
	if err := page.Act(context.Background(), agent.Action{Kind: agent.ActClick, Target: agent.Target{CSS: "#late"}}); err != nil {
		t.Fatalf("click #late: %v", err)
	}
	s := mustObserve(t, page)
	var log []string
	for _, p := range s.Pairs {
		if p.Role == "listitem" {
			log = append(log, p.Name)
		}
	}
	want := []string{"Accessible mode by keyboard", "Skip to content by keyboard", "High contrast by keyboard", "Plain button by pointer", "Late button by pointer"}
	if !slices.Equal(log, want) {
		t.Errorf("presses %q, want %q", log, want)
	}
}

// TestUploadsStayInsideTheFolder uploads a file from the uploads folder and is refused one
// through `..` and one through a symlink that leaves it.
func TestUploadsStayInsideTheFolder(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	uploads := filepath.Join(base, "uploads")
	if err := os.MkdirAll(uploads, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, text := range map[string]string{filepath.Join(uploads, "report.txt"): "report", filepath.Join(base, "id_ed25519"): "key"} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "id_ed25519"), filepath.Join(uploads, "key")); err != nil {
		t.Fatal(err)
	}
	page := openTestPage(t, "upload.html", agent.PageOptions{Uploads: uploads})
	upload := func(name string) error {
		return page.Act(context.Background(), agent.Action{Kind: agent.ActUpload, Target: agent.Target{Label: "File"}, Value: name})
	}
	if err := upload("report.txt"); err != nil {
		t.Fatalf("upload inside the folder: %v", err)
	}
	if got := page.Transfers(); len(got) != 1 || got[0] != (agent.Transfer{Kind: agent.ActUpload, Offered: "report.txt", Saved: "report.txt", Bytes: 6}) {
		t.Errorf("transfers %+v, want the one upload", got)
	}
	for _, name := range []string{"../id_ed25519", "key"} {
		if err := upload(name); err == nil || !strings.Contains(err.Error(), "uploads folder") {
			t.Errorf("upload %q: %v, want a refusal naming the uploads folder", name, err)
		}
	}
	if got := page.Transfers(); len(got) != 0 {
		t.Errorf("refused uploads recorded as transfers: %+v", got)
	}
	if s := mustObserve(t, page); !strings.Contains(s.Text, "chosen: report.txt") {
		t.Errorf("page text %q, want the one file chosen", s.Text)
	}
}

// TestDownloadsGetSafeNamesAndNeverOverwrite downloads files the server names hostile ways
// and one whose name is already taken. Chromium offers a path or control characters already
// replaced by underscores; what it offers is made safe again all the same (a remote browser
// may not be Chromium).
func TestDownloadsGetSafeNamesAndNeverOverwrite(t *testing.T) {
	t.Parallel()
	downloads := t.TempDir()
	if err := os.WriteFile(filepath.Join(downloads, "statement.pdf"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := openTestPage(t, "download.html", agent.PageOptions{Downloads: downloads})
	want := map[string]string{
		"Statement":    "statement (2).pdf",
		"Bash profile": "_.._.bashrc",
		"Device name":  "_CON",
		"Control":      "in_voice_.pdf",
		"Long":         strings.Repeat("a", 180),
	}
	for link, saved := range want {
		err := page.Act(context.Background(), agent.Action{Kind: agent.ActDownload, Target: agent.Target{Role: "link", Name: link}})
		if err != nil {
			t.Fatalf("download %s: %v", link, err)
		}
		got := page.Transfers()
		if len(got) != 1 || !strings.HasPrefix(got[0].Saved, saved) || len(got[0].Saved) > 200 || got[0].Kind != agent.ActDownload {
			t.Errorf("download %s: %+v, want saved as %q", link, got, saved)
			continue
		}
		if b, err := os.ReadFile(filepath.Join(downloads, got[0].Saved)); err != nil || !strings.HasPrefix(string(b), "contents of") {
			t.Errorf("%s: %q, %v", saved, b, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(downloads, "statement.pdf")); string(b) != "mine" {
		t.Errorf("statement.pdf holds %q: a download overwrote it", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(downloads))
	for _, e := range entries {
		if strings.Contains(e.Name(), "bashrc") {
			t.Errorf("a download left the folder: %s", e.Name())
		}
	}
}

// TestObserveReadsTheFocus checks what the sample says of the focused element: its role and
// name, and whether Enter in it submits its form and through which button: the form's first
// submit button, none for a text area, a form with no button and one field, not a form with
// two fields and no button, nor one whose default button is disabled.
func TestObserveReadsTheFocus(t *testing.T) {
	t.Parallel()
	page := openTestPage(t, "focus.html", agent.PageOptions{})
	if s := mustObserve(t, page); s.Focus != nil {
		t.Errorf("nothing focused yet, observed %+v", *s.Focus)
	}
	tests := []struct {
		a    agent.Action
		want agent.Focus
	}{
		{agent.Action{Kind: agent.ActFill, Target: agent.Target{Label: "To"}, Value: "a@x"}, agent.Focus{Role: "textbox", Name: "To", Submits: true, Submitter: "Send"}},
		{agent.Action{Kind: agent.ActFill, Target: agent.Target{Label: "Message"}, Value: "hi"}, agent.Focus{Role: "textbox", Name: "Message"}},
		{agent.Action{Kind: agent.ActPress, Target: agent.Target{Role: "button", Name: "Send"}, Value: "Shift"}, agent.Focus{Role: "button", Name: "Send"}},
		{agent.Action{Kind: agent.ActFill, Target: agent.Target{Role: "searchbox", Name: "Search mail"}, Value: "q3"}, agent.Focus{Role: "searchbox", Name: "Search mail", Submits: true}},
		{agent.Action{Kind: agent.ActFill, Target: agent.Target{Label: "First"}, Value: "Ada"}, agent.Focus{Role: "textbox", Name: "First"}},
		{agent.Action{Kind: agent.ActFill, Target: agent.Target{Label: "Coupon"}, Value: "FREE"}, agent.Focus{Role: "textbox", Name: "Coupon"}},
	}
	for _, tt := range tests {
		if err := page.Act(context.Background(), tt.a); err != nil {
			t.Fatalf("%s %s: %v", tt.a.Kind, tt.a.Target, err)
		}
		s := mustObserve(t, page)
		if s.Focus == nil || *s.Focus != tt.want {
			t.Errorf("after %s %s: focus %+v, want %+v", tt.a.Kind, tt.a.Target, s.Focus, tt.want)
		}
	}
}
