package httpapi

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"observatory/app/apierror"
	"observatory/backend/agent"
	"observatory/backend/runfile"
	"observatory/backend/store"
)

// TestARunReadsInLayersOverHTTP imports a run through an upload, then opens it the way the
// window does: its header (each step summarised, no samples), an attempt's summaries, a
// window of its steps whole, and one attempt's replay; each agrees with the run read whole.
func TestARunReadsInLayersOverHTTP(t *testing.T) {
	f := newFixture(t)
	id := f.uploadBookingRun(t)
	whole, err := f.store.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	a := whole.Attempts[0]

	var head store.RunHeader
	raw := result(t, f, "/api/History/Header", `["`+id[:10]+`"]`, &head)
	if head.ID != id || len(head.Attempts) != len(whole.Attempts) || head.Attempts[0].Verdicts.Truth != a.Verdicts.Truth ||
		!reflect.DeepEqual(head.Attempts[0].Events, a.Events) || head.Attempts[0].StepCount != len(a.Steps) {
		t.Fatalf("History.Header: %+v", head)
	}
	var listed []agent.StepSummary
	result(t, f, "/api/History/Summaries", `["`+id+`","`+a.Slug+`"]`, &listed)
	for i, st := range a.Steps {
		if got := head.Attempts[0].Steps[i]; got != st.Summary() {
			t.Errorf("History.Header: step %d reads %+v, want its summary %+v", i, got, st.Summary())
		}
		if got := listed[i]; got != st.Summary() {
			t.Errorf("History.Summaries: step %d reads %+v, want its summary %+v", i, got, st.Summary())
		}
	}
	if strings.Contains(raw, `"before"`) || strings.Contains(raw, `"pairs"`) {
		t.Errorf("History.Header carries samples: %.300s", raw)
	}

	var steps []agent.Step
	result(t, f, "/api/History/Steps", `["`+id+`","`+a.Slug+`",1,2]`, &steps)
	if !reflect.DeepEqual(steps, a.Steps[1:3]) {
		t.Errorf("History.Steps from 1, 2 of them:\n got %+v\nwant %+v", steps, a.Steps[1:3])
	}
	if status, out := f.call(t, "/api/History/Steps", "application/json", `["`+id+`","`+a.Slug+`",0,101]`); status != http.StatusUnprocessableEntity ||
		!strings.Contains(errorOf(out).Message, "at most 100") {
		t.Errorf("History.Steps of 101 steps: %d %v, want a refusal", status, out)
	}
	if status, out := f.call(t, "/api/History/Steps", "application/json", `["`+id+`","nope",0,1]`); status != http.StatusNotFound || errorOf(out).Kind != apierror.NotFound ||
		!strings.Contains(errorOf(out).Message, `no attempt "nope": it has `+a.Slug) {
		t.Errorf("History.Steps of an unknown attempt: %d %v", status, out)
	}

	var replay runfile.AttemptReplay
	result(t, f, "/api/History/Replay", `["`+id+`","`+a.Slug+`"]`, &replay)
	if len(replay.Frames) != len(a.Events)+1 || replay.Recomputed.Gate.Done != a.Verdicts.Gate.Done || len(replay.Disagreements) != 0 {
		t.Errorf("History.Replay: %d frames for %d events, %+v", len(replay.Frames), len(a.Events), replay.Disagreements)
	}
}

// result makes a call that must succeed, decodes its result into v and returns its JSON.
func result(t *testing.T, f *fixture, path, args string, v any) string {
	t.Helper()
	resp, err := f.client.Post(f.srv.URL+path, "application/json", strings.NewReader(args))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  string          `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %v %s", path, args, resp.StatusCode, err, out.Error)
	}
	if err := json.Unmarshal(out.Result, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(out.Result)
}
