package runfile

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestLongProseIsRefusedAtItsPath checks that free text a recording writes in words (7 MiB
// of an attempt's reason fit under the file's 8 MiB) is refused on import with its path,
// and that export refuses what import would.
func TestLongProseIsRefusedAtItsPath(t *testing.T) {
	huge := strings.Repeat("x", 7<<20)
	for _, tt := range []struct {
		edit func(*agent.Run)
		path string
	}{
		{func(r *agent.Run) { r.Attempts[1].Reason = huge }, "attempts[1].reason"},
		{func(r *agent.Run) { r.Attempts[0].Title = huge[:MaxProseBytes+1] }, "attempts[0].title"},
		{func(r *agent.Run) { r.Attempts[0].Steps[1].Decision.Reason = huge[:MaxProseBytes+1] }, "attempts[0].steps[1].decision.reason"},
		{func(r *agent.Run) { r.Attempts[1].Steps[2].Error = huge[:MaxProseBytes+1] }, "attempts[1].steps[2].error"},
		{func(r *agent.Run) {
			r.Attempts[0].Steps[1].Decision.Review = &agent.Review{Reviewer: "rules", Verdict: agent.ReviewClear, Reason: huge[:MaxProseBytes+1]}
		}, "attempts[0].steps[1].decision.review.reason"},
	} {
		run := goodRun()
		tt.edit(&run)
		if err := Encode(&bytes.Buffer{}, run); err == nil || !strings.Contains(err.Error(), "at "+tt.path+": ") {
			t.Errorf("%s: export gave %v, want it refused there", tt.path, err)
		}
		data, err := json.Marshal(New(run, t0).format()) // not EncodeFile, which refuses it
		if err != nil {
			t.Fatal(err)
		}
		_, err = Decode(bytes.NewReader(data))
		if err == nil || !strings.Contains(err.Error(), "at "+tt.path+": ") || !strings.Contains(err.Error(), "at most 16 KiB here") {
			t.Errorf("%s: import gave %v, want it refused there", tt.path, err)
		}
	}
	run := goodRun()
	run.Attempts[1].Reason = huge[:MaxProseBytes]
	if _, err := Decode(bytes.NewReader(encoded(t, New(run, t0)))); err != nil {
		t.Errorf("a reason of exactly %d bytes: %v", MaxProseBytes, err)
	}
}
