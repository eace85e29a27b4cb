package httpapi

import (
	"net/http"
	"testing"

	"observatory/app/apierror"
)

// TestRequestsOverHTTP imports a run through an upload (a version-1 file, which records no
// traffic), then reads one attempt's network requests: a list, empty, never null.
func TestRequestsOverHTTP(t *testing.T) {
	f := newFixture(t)
	id := f.uploadBookingRun(t)
	status, out := f.call(t, "/api/History/Requests", "application/json", `["`+id+`","saves-normally"]`)
	res, _ := out["result"].(map[string]any)
	if reqs, ok := res["requests"].([]any); status != http.StatusOK || !ok || len(reqs) != 0 {
		t.Fatalf("History.Requests: %d %v, want an empty list", status, out)
	}
	if status, out = f.call(t, "/api/History/Requests", "application/json", `["`+id+`","nope"]`); status != http.StatusNotFound || errorOf(out).Kind != apierror.NotFound {
		t.Errorf("an unknown attempt: %d %v", status, out)
	}
}
