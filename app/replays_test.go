package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/runfile"
)

// TestReplayIsKeptOnlyForTheRunItWasMadeFrom replays a stored run's attempt twice (the second
// from what was kept), then deletes the run and stores, under the same id, one whose attempt
// has fewer events: the replay is made again from the new run, not the old.
func TestReplayIsKeptOnlyForTheRunItWasMadeFrom(t *testing.T) {
	s, _, st := newServices(t, nil)
	data, err := os.ReadFile(filepath.Join("..", "backend", "runfile", "testdata", "v1-booking.json"))
	if err != nil {
		t.Fatal(err)
	}
	store := func(text []byte) {
		t.Helper()
		f, err := runfile.Decode(bytes.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		res, err := runfile.Verify(Resolve, f)
		if err != nil {
			t.Fatal(err)
		}
		res.Run.ID, res.Run.Source = "20260101-000000-same", "booking.json"
		if err := st.SaveImported(res.Run); err != nil {
			t.Fatal(err)
		}
	}
	replay := func() runfile.AttemptReplay {
		t.Helper()
		r, err := s.History.Replay("20260101-000000-same", "saves-normally")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	store(data)
	if a, b := replay(), replay(); len(a.Frames) != 9 || len(b.Frames) != 9 || !a.Recomputed.Gate.Done {
		t.Fatalf("replays of the stored attempt: %d and %d frames, gate done %v; want 9 frames (8 events) and done", len(a.Frames), len(b.Frames), a.Recomputed.Gate.Done)
	}

	var file map[string]any
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	attempt := file["attempts"].([]any)[0].(map[string]any)
	attempt["events"] = attempt["events"].([]any)[:5] // up to the commit; the dialog never closed
	shorter, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.History.Delete("20260101-000000-same"); err != nil {
		t.Fatal(err)
	}
	store(shorter)
	if r := replay(); len(r.Frames) != 6 || r.Recomputed.Gate.Done {
		t.Errorf("the replay of the run stored again: %d frames, gate done %v; want 6 frames and not done", len(r.Frames), r.Recomputed.Gate.Done)
	}
}

func TestReplayCacheKeepsTheMostRecentlyUsed(t *testing.T) {
	var c replayCache
	key := func(k int) replayKey { return replayKey{run: "run", slug: string(rune('a' + k))} }
	for k := range replayCacheSize {
		c.put(key(k), runfile.AttemptReplay{Disagreements: []runfile.Disagreement{{Attempt: key(k).slug}}})
	}
	if _, ok := c.get(key(0)); !ok { // used again: key(1) is now the oldest
		t.Fatal("the first replay kept is gone before the cache is full")
	}
	c.put(key(replayCacheSize), runfile.AttemptReplay{})
	if _, ok := c.get(key(1)); ok {
		t.Error("the replay used longest ago is still kept past the cache's size")
	}
	if r, ok := c.get(key(0)); !ok || r.Disagreements[0].Attempt != "a" {
		t.Errorf("the replay used most recently went: %v %+v", ok, r)
	}
}
