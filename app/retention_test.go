package app

import (
	"reflect"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/retention"
)

func TestPruneKeepsTheRunBeingWrittenAndTheOneOnScreen(t *testing.T) {
	s, _, st := newServices(t, nil)
	// Oldest first: a run still being written (started three days ago), then three imports.
	running := agent.Run{ID: "20251128-000000-live", Task: "booking", Created: time.Now().Add(-72 * time.Hour), Source: "live"}
	if err := st.RunStarted(running); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"20260101-000000-aaaa", "20260101-000000-bbbb", "20260101-000000-cccc"} {
		if err := st.SaveImported(agent.Run{ID: id, Task: "booking", Created: time.Now(), Source: id + ".json"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // distinct times added
	}
	ids := func() []string {
		h, err := s.History.List()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range h {
			out = append(out, r.ID)
		}
		return out
	}
	all := ids()

	if deleted, err := s.History.Prune(); err != nil || deleted != nil {
		t.Fatalf("retention is off by default, yet Prune deleted %v (%v)", deleted, err)
	}
	if got := ids(); !reflect.DeepEqual(got, all) {
		t.Fatalf("history %v after Prune with retention off, want %v", got, all)
	}

	set, err := s.Settings.Get()
	if err != nil {
		t.Fatal(err)
	}
	set.Retention = retention.Policy{KeepLast: 1}
	if err := s.Settings.Save(set); err != nil {
		t.Fatal(err)
	}
	if _, err := s.History.Header("20260101-000000-aaaa"); err != nil { // the window opens the oldest import
		t.Fatal(err)
	}
	deleted, err := s.History.Prune()
	if err != nil {
		t.Fatalf("Prune: %v", err)
	}
	if want := []string{"20260101-000000-bbbb"}; !reflect.DeepEqual(deleted, want) {
		t.Errorf("deleted %v, want %v: past the newest run, but neither on screen nor being written", deleted, want)
	}
	if got, want := ids(), []string{"20260101-000000-cccc", "20260101-000000-aaaa", running.ID}; !reflect.DeepEqual(got, want) {
		t.Errorf("history %v after Prune, want %v", got, want)
	}
}

func TestSettingsRefuseANegativeRetention(t *testing.T) {
	s, _, _ := newServices(t, nil)
	set := DefaultSettings()
	set.Retention = retention.Policy{KeepLast: -1}
	if err := s.Settings.Save(set); err == nil {
		t.Fatal("a negative KeepLast was saved")
	}
}
