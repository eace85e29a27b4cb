package httpapi

import (
	"net/http"
	"strings"
	"testing"

	"observatory/app/apierror"
)

// TestLedgerOverHTTP imports a run through an upload, then reads one attempt's action ledger
// as entries and as CSV through the same services the desktop binds.
func TestLedgerOverHTTP(t *testing.T) {
	f := newFixture(t)
	id := f.uploadBookingRun(t)
	status, out := f.call(t, "/api/Runs/Ledger", "application/json", `["`+id+`","saves-normally"]`)
	entries, _ := out["result"].([]any)
	if status != http.StatusOK || len(entries) != 5 || entries[0].(map[string]any)["decision"] == "" {
		t.Fatalf("Runs.Ledger: %d %v, want 5 entries", status, out)
	}
	status, out = f.call(t, "/api/Files/ExportLedger", "application/json", `["`+id+`","saves-normally"]`)
	csv, _ := out["result"].(string)
	if status != http.StatusOK || !strings.HasPrefix(csv, "step,intent,action,target,principal,observed_ms,fingerprint,") || strings.Count(csv, "\n") != 6 {
		t.Errorf("Files.ExportLedger: %d %q, want the header and 5 rows", status, csv)
	}
	if status, out = f.call(t, "/api/Files/ExportLedger", "application/json", `["`+id+`","nope"]`); status != http.StatusNotFound || errorOf(out).Kind != apierror.NotFound ||
		!strings.Contains(errorOf(out).Message, `no attempt "nope"`) {
		t.Errorf("an unknown attempt: %d %v", status, out)
	}
}
