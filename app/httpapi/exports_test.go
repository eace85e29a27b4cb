package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"observatory/app/apierror"
)

// TestLedgerOverHTTP imports a run through an upload, then reads one attempt's action ledger
// as entries through the same services the desktop binds.
func TestLedgerOverHTTP(t *testing.T) {
	f := newFixture(t)
	id := f.uploadBookingRun(t)
	status, out := f.call(t, "/api/Analysis/Ledger", "application/json", `["`+id+`","saves-normally"]`)
	entries, _ := out["result"].([]any)
	if status != http.StatusOK || len(entries) != 5 || entries[0].(map[string]any)["decision"] == "" {
		t.Fatalf("Analysis.Ledger: %d %v, want 5 entries", status, out)
	}
}

// TestExportsOverHTTP gets each text format of an uploaded run through Files.Export, and
// checks that a wrong format or attempt comes back typed, naming the argument at fault.
func TestExportsOverHTTP(t *testing.T) {
	f := newFixture(t)
	id := f.uploadBookingRun(t)
	args := func(format, slug string) string {
		b, _ := json.Marshal([]string{format, id, slug})
		return string(b)
	}
	for _, c := range []struct{ format, slug, starts string }{
		{"run", "", `{`},
		{"report", "", "<!doctype html>"},
		{"har", "saves-normally", `{`},
		{"ledger", "saves-normally", "step,intent,action,target,principal,observed_ms,fingerprint,"},
	} {
		status, out := f.call(t, "/api/Files/Export", "application/json", args(c.format, c.slug))
		text, _ := out["result"].(string)
		if status != http.StatusOK || !strings.HasPrefix(strings.ToLower(text), strings.ToLower(c.starts)) {
			t.Errorf("Files.Export %s: %d %.200q, want it to start %q", c.format, status, text, c.starts)
		}
	}
	if _, out := f.call(t, "/api/Files/Export", "application/json", args("ledger", "saves-normally")); strings.Count(out["result"].(string), "\n") != 6 {
		t.Errorf("the ledger: %q, want the header and 5 rows", out["result"])
	}
	for _, c := range []struct {
		format, slug string
		status       int
		kind         apierror.Kind
		path, says   string
	}{
		{"ledger", "nope", http.StatusNotFound, apierror.NotFound, "", `no attempt "nope"`},
		{"pdf", "", http.StatusUnprocessableEntity, apierror.Invalid, "format", `no export format "pdf"; there are bundle, har, ledger, report, run`},
		{"bundle", "", http.StatusUnprocessableEntity, apierror.Invalid, "format", "/bundle/<id>"},
		{"har", "", http.StatusUnprocessableEntity, apierror.Invalid, "slug", "holds one attempt"},
		{"report", "saves-normally", http.StatusUnprocessableEntity, apierror.Invalid, "slug", "holds the whole run"},
	} {
		status, out := f.call(t, "/api/Files/Export", "application/json", args(c.format, c.slug))
		e := errorOf(out)
		if status != c.status || e.Kind != c.kind || e.Path != c.path || !strings.Contains(e.Message, c.says) {
			t.Errorf("Files.Export %s %q: %d %+v, want %d %s at %q saying %q", c.format, c.slug, status, e, c.status, c.kind, c.path, c.says)
		}
	}
}
