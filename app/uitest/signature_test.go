package uitest

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/app"
	"observatory/backend/bundle/bundletest"
	"observatory/backend/signing"
	"observatory/backend/store"
)

// TestTheWindowSaysWhoSignedARun runs a booking attempt, exports it as a bundle signed by a
// key of this data folder, and imports it back through the window, then the same bundle with
// one byte of its run file or of one screenshot changed, then after the key is no longer
// trusted, then unsigned. Each time the history card and the trace header say, as rendered,
// what the import found, and the header's details list what was signed; the bundle whose
// screenshot changed is refused, the window saying the signature does not match first.
func TestTheWindowSaysWhoSignedARun(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "no-bus")) // keys in files
	srv, st, dir := newServerWithStore(t)
	page := openPage(t, srv)
	runAttempt(t, page, noticeTitle, "failed")
	keys := app.SigningKeysIn(dir)
	key, _, err := keys.New("alice")
	must(t, "make a key", err)
	runs, err := st.List()
	must(t, "list the runs", err)
	out := t.TempDir()
	signed, unsigned := filepath.Join(out, "signed.zip"), filepath.Join(out, "unsigned.zip")
	transfer := app.NewTransfer(st, dir)
	_, _, err = transfer.ExportSignedFile(runs[0].ID, signed, "alice", true)
	must(t, "export the signed bundle", err)
	_, err = transfer.ExportFile(runs[0].ID, unsigned)
	must(t, "export the unsigned bundle", err)
	runFile, shot := filepath.Join(out, "run-byte.zip"), filepath.Join(out, "shot-byte.zip")
	bundletest.Rezip(t, signed, runFile, func(n string) bool { return n == "run.json" }, bundletest.Relive)
	bundletest.Rezip(t, signed, shot, regexp.MustCompile(`^media/.*\.jpg$`).MatchString, bundletest.FlipMiddle)

	fp := signing.Fingerprint(key.PublicKey)
	verified := "signed by alice (" + fp + "), verified"
	for _, c := range []struct {
		name, path, label string
		untrust           bool
		inDetails         []string
	}{
		{"signed by a trusted key", signed, verified, false, []string{"run.json", "media/", "not when the run happened"}},
		{"one byte of the run file changed", runFile, "signature does not match", false, []string{"run.json changed since it was signed"}},
		// A screenshot that no longer matches its name is refused whole, the window saying why.
		{"one byte of a screenshot changed", shot, "signature does not match", false, []string{".jpg changed since it was signed", "does not match its name"}},
		{"signed by a key no longer trusted", signed, "signed by an untrusted key", true, []string{"calling itself “alice”", "observatory keys trust FILE"}},
		{"unsigned", unsigned, "unsigned", false, []string{"Nothing in this run was signed."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.untrust {
				_, err := keys.Untrust("alice")
				must(t, "untrust alice", err)
			}
			before := len(listRuns(t, st))
			importFile(t, page, c.path)
			if c.path == shot {
				errs := page.GetByRole("alert", playwright.PageGetByRoleOptions{Name: "Errors"})
				expectContains(t, errs, c.label)
				for _, want := range c.inDetails {
					expectContains(t, errs, want)
				}
				if n := len(listRuns(t, st)); n != before {
					t.Errorf("the refused bundle left %d runs in the history, want %d", n, before)
				}
				must(t, "dismiss the error", errs.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Dismiss"}).Click())
				return
			}
			id := importedRun(t, st, before)
			card := page.GetByTestId("run-" + id).GetByTestId("signature")
			must(t, "see the history card's signature", expect.Locator(card).ToHaveText(c.label))
			head := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"}).GetByTestId("signature")
			must(t, "see the trace header's signature", expect.Locator(head).ToHaveText(c.label))
			must(t, "open the signature's details", head.Click())
			details := page.Locator(".trace-head .signature-details")
			for _, want := range c.inDetails {
				expectContains(t, details, want)
			}
			snap(t, page, "signature-"+strings.ReplaceAll(c.name, " ", "-"))
		})
	}
}

// listRuns is the history, newest first.
func listRuns(t *testing.T, st *store.Store) []store.Summary {
	t.Helper()
	runs, err := st.List()
	must(t, "list the runs", err)
	return runs
}

// importedRun waits (within uiTimeout) for the history to hold more than before runs and
// returns the id of the run added last.
func importedRun(t *testing.T, st *store.Store, before int) string {
	t.Helper()
	wait := time.Duration(uiTimeout) * time.Millisecond
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if runs := listRuns(t, st); len(runs) > before {
			return runs[0].ID
		}
	}
	t.Fatalf("no run was imported within %v", wait)
	return ""
}
