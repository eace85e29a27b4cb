package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/bundle"
	"observatory/backend/labs/booking"
	"observatory/backend/runfile"
)

// bookingRun is a finished run of the booking lab with one attempt that did nothing, its
// verdicts the lab's own, so that it verifies and imports without a browser; video, if set,
// names the attempt's video.
func bookingRun(t *testing.T, video string) agent.Run {
	t.Helper()
	lab := booking.New()
	v, err := lab.Judge(agent.Evidence{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	return agent.Run{ID: "0123456789abcdef", Task: lab.Name(), Created: now, Status: agent.RunFinished, Source: "live",
		Attempts: []agent.Attempt{{Slug: "saves-normally", Title: "Saves normally", Task: lab.Task(), Config: agent.DefaultConfig(),
			Terminal: agent.Failed, Reason: "it did nothing", Verdicts: v, Started: now, Video: video}}}
}

// runFileBytes is run's run file.
func runFileBytes(t *testing.T, run agent.Run) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := runfile.Encode(&buf, run); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bundleBytes is run's bundle, with media (name to content) in its media folder.
func bundleBytes(t *testing.T, run agent.Run, media map[string][]byte) []byte {
	t.Helper()
	dir := t.TempDir()
	for name, data := range media {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := bundle.Export(&buf, run, dir); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
