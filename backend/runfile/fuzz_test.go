package runfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/labs/booking"
)

// findLab finds the real labs as the product does, through labs.Get, and the fake lab the
// testdata files are written for.
func findLab(name string, spec json.RawMessage) (agent.Suite, error) {
	if name == (fakeLab{}).Name() {
		return findFake(name, spec)
	}
	if len(spec) > 0 {
		return nil, os.ErrNotExist
	}
	return labs.Get(name)
}

// bookingEvents is a legal booking-lab log of one save of the task's title into room.
func bookingEvents(room string) []agent.Event {
	title := booking.Requested.Title
	events := []agent.Event{
		{Type: booking.EventDialogOpened},
		{Type: booking.EventFieldChanged, Data: map[string]string{"field": booking.FieldTitle, "value": title}},
		{Type: booking.EventFieldChanged, Data: map[string]string{"field": booking.FieldRoom, "value": room}},
		{Type: booking.EventSaveRequested, Data: map[string]string{"title": title, "room": room}},
		{Type: booking.EventCommitted, Data: map[string]string{"id": "1", "title": title, "room": room}},
		{Type: booking.EventSaveCompleted},
		{Type: booking.EventDialogClosed},
		{Type: booking.EventNoticeShown, Data: map[string]string{"text": booking.SavedNotice}},
	}
	for i := range events {
		events[i].Seq, events[i].AtMS = i+1, int64(10*i)
	}
	return events
}

// bookingFile is goodFile moved to the real booking lab: each attempt's events are a legal
// booking log saving into the attempt's room (north, then south), its notices the booking
// lab's, and its verdicts the booking lab's own.
func bookingFile(tb testing.TB) File {
	tb.Helper()
	lab := booking.New()
	f := goodFile()
	f.Run.Task = lab.Name()
	for i, room := range []string{booking.RoomNorth, booking.RoomSouth} {
		a := &f.Run.Attempts[i]
		a.Task, a.Events = lab.Task(), bookingEvents(room)
		for j := range a.Steps {
			if a.Steps[j].After.Notice != "" {
				a.Steps[j].After.Notice = booking.SavedNotice
			}
		}
		v, err := lab.Judge(a.Evidence())
		if err != nil {
			tb.Fatalf("the booking lab refuses the seed's events for room %s: %v", room, err)
		}
		a.Verdicts = v
	}
	return f
}

// FuzzImport imports arbitrary bytes through the real labs' transition functions and judges.
// A refused file stores nothing; an accepted one is stored once, exports again, and imports
// again with no disagreement, since its verdicts are now the lab's own.
func FuzzImport(f *testing.F) {
	paths, err := filepath.Glob(filepath.Join("testdata", "bad", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range append(paths, filepath.Join("testdata", "good.json"), filepath.Join("testdata", "good-v2.json")) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	seed := encoded(f, bookingFile(f))
	if _, err := Import(findLab, &fakeSaver{}, "seed.json", bytes.NewReader(seed)); err != nil {
		f.Fatalf("the booking seed is refused: %v", err)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		saver := &fakeSaver{}
		res, err := Import(findLab, saver, "fuzz.json", bytes.NewReader(data))
		if err != nil {
			if len(saver.saved) != 0 {
				t.Fatalf("refused file (%v) stored a run", err)
			}
			return
		}
		if len(saver.saved) != 1 {
			t.Fatalf("accepted file stored %d runs, want 1", len(saver.saved))
		}
		var buf bytes.Buffer
		if err := Encode(&buf, res.Run); err != nil {
			t.Fatalf("re-encoding an accepted file: %v", err)
		}
		again, err := Import(findLab, &fakeSaver{}, "again.json", &buf)
		if err != nil {
			t.Fatalf("re-encoded file refused: %v", err)
		}
		if len(again.Disagreements) != 0 {
			t.Fatalf("re-imported file disagrees with its own verdicts: %+v", again.Disagreements)
		}
	})
}
