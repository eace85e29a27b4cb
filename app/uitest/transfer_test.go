package uitest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

const noticeTitle = "Notice shown, nothing saved"

// TestExportResetImportReplay runs one attempt, exports it as a run file and as a bundle,
// resets, and imports each back: the replay's last frame shows the recomputed verdicts, a
// tampered file's disagreement is named, and a bundle brings its video along.
func TestExportResetImportReplay(t *testing.T) {
	page := openPage(t, newServer(t))
	r := runAttempt(t, page, noticeTitle, "failed")
	expectText(t, cell(r, colGate), "not done")
	liveVideo, err := loadedVideo(t, page).GetAttribute("src")
	must(t, "read the live run's video source", err)

	runFile := exportAs(t, page, "Export run file")
	bundle := exportAs(t, page, "Export bundle")
	checkPrefix(t, runFile, `{`)
	checkPrefix(t, bundle, "PK\x03\x04")

	reset := func(t *testing.T) {
		t.Helper()
		must(t, "click Reset", button(page, "Reset").Click())
		expectText(t, cell(row(page, noticeTitle), colTerminal), "")
	}
	imported := page.GetByRole("heading", playwright.PageGetByRoleOptions{Name: "Attempts imported"})

	t.Run("run file replays to the recomputed verdicts", func(t *testing.T) {
		reset(t)
		importFile(t, page, runFile)
		must(t, "see the run marked imported", expect.Locator(imported).ToBeVisible())
		r := row(page, noticeTitle)
		expectText(t, cell(r, colGate), "not done")
		expectText(t, cell(r, colNotice), "donewrong")
		must(t, "see no disagreement", expect.Locator(page.GetByTestId("disagreements")).ToHaveCount(0))

		slider := page.GetByRole("slider", playwright.PageGetByRoleOptions{Name: "Replay frame"})
		must(t, "focus the replay slider", slider.Focus())
		must(t, "press End on the slider", slider.Press("End"))
		max, err := slider.GetAttribute("max")
		must(t, "read the slider's max", err)
		must(t, "see the last frame", expect.Locator(slider).ToHaveValue(max))
		recomputed := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Recomputed verdicts"})
		for verdict, want := range map[string]string{"Completion gate": "not done", "Success notice": "donewrong", "Saved as asked": "no"} {
			line := recomputed.GetByRole("row", playwright.LocatorGetByRoleOptions{Name: verdict})
			expectText(t, line.GetByRole("cell").First(), want)
		}
		snap(t, page, "replay-after-import")
	})

	t.Run("tampered file names the disagreement", func(t *testing.T) {
		importFile(t, page, tamperGate(t, runFile))
		expectContains(t, page.GetByTestId("disagreements"), noticeTitle+", completion gate: the file says done, replay says not done.")
		gate := cell(row(page, noticeTitle), colGate)
		expectText(t, gate, "not donefile said done")
		snap(t, page, "tampered-import")
		checkA11y(t, page, "an imported, tampered run")
	})

	t.Run("bundle brings the video", func(t *testing.T) {
		reset(t)
		importFile(t, page, bundle)
		must(t, "see the run marked imported", expect.Locator(imported).ToBeVisible())
		expectText(t, cell(row(page, noticeTitle), colGate), "not done")
		src, err := loadedVideo(t, page).GetAttribute("src")
		must(t, "read the imported video's source", err)
		if src == liveVideo {
			t.Fatalf("the imported run plays the live run's video %s, not its own", src)
		}
	})
}

// checkPrefix fails unless the file at path starts with prefix.
func checkPrefix(t *testing.T, path, prefix string) {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, "read "+path, err)
	if !bytes.HasPrefix(b, []byte(prefix)) {
		t.Fatalf("%s starts with %q, want %q", filepath.Base(path), b[:min(len(b), 8)], prefix)
	}
}

// tamperGate writes a copy of the run file at path whose first attempt claims the gate was
// done, and returns the copy's path.
func tamperGate(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, "read the run file", err)
	var doc map[string]any
	must(t, "parse the run file", json.Unmarshal(b, &doc))
	attempts, _ := doc["attempts"].([]any)
	if len(attempts) == 0 {
		t.Fatalf("the run file has no attempts: %.200s", b)
	}
	gate, ok := dig(attempts[0], "verdicts", "gate")
	if !ok {
		t.Fatalf("the run file's attempt has no verdicts.gate: %.300s", b)
	}
	gate["done"] = true
	out, err := json.Marshal(doc)
	must(t, "encode the tampered run file", err)
	tampered := filepath.Join(t.TempDir(), "tampered.json")
	must(t, "write the tampered run file", os.WriteFile(tampered, out, 0o644))
	return tampered
}

// dig follows keys through nested JSON objects.
func dig(v any, keys ...string) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	for _, k := range keys {
		if !ok {
			return nil, false
		}
		m, ok = m[k].(map[string]any)
	}
	return m, ok
}
