package runfile

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"

	"observatory/backend/agent"
)

// fakeSaver records what Import saved.
type fakeSaver struct{ saved []agent.Run }

func (s *fakeSaver) SaveImported(run agent.Run) error {
	s.saved = append(s.saved, run)
	return nil
}

func TestImportOfAGoodFileStoresRecomputedRun(t *testing.T) {
	saver := &fakeSaver{}
	res, err := Import(findFake, saver, "shared.json", bytes.NewReader(encoded(t, goodFile())))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Disagreements) != 0 {
		t.Errorf("disagreements on an honest file: %+v", res.Disagreements)
	}
	if len(saver.saved) != 1 {
		t.Fatalf("saved %d runs, want 1", len(saver.saved))
	}
	got := saver.saved[0]
	want := goodRun()
	want.Status, want.Source = agent.RunImported, "shared.json"
	if got.ID == want.ID || len(got.ID) != 16 {
		t.Errorf("imported id = %q, want a fresh 16-digit id", got.ID)
	}
	want.ID = got.ID
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(res.Run, got) {
		t.Errorf("saved run:\n got %+v\nwant %+v", got, want)
	}
}

// tamper edits a copy of the good file.
func tamper(edit func(f *File)) File {
	f := goodFile()
	f.Attempts = slices.Clone(f.Attempts)
	for i := range f.Attempts {
		f.Attempts[i].Events = slices.Clone(f.Attempts[i].Events)
	}
	edit(&f)
	return f
}

func renumber(events []agent.Event) []agent.Event {
	for i := range events {
		events[i].Seq = i + 1
	}
	return events
}

func TestTamperedFilesAreFlaggedNotBelieved(t *testing.T) {
	tests := []struct {
		name    string
		file    File
		want    []Disagreement
		refused string // the path of the refusal, when the file is refused instead
	}{
		{name: "gate flipped to done", file: tamper(func(f *File) {
			f.Attempts[1].Verdicts.Gate.Done = true
			f.Attempts[1].Terminal = agent.Completed
		}), want: []Disagreement{
			{Attempt: "wrong-room", Verdict: VerdictGate, Recorded: "done", Recomputed: "not done"},
			{Attempt: "wrong-room", Verdict: VerdictTerminal, Recorded: "completed", Recomputed: "gate not done"},
		}},
		{name: "saved-as-asked flipped", file: tamper(func(f *File) { f.Attempts[1].Verdicts.SavedAsAsked.Done = true }),
			want: []Disagreement{{Attempt: "wrong-room", Verdict: VerdictSavedAsAsked, Recorded: "done", Recomputed: "not done"}}},
		{name: "notice event removed", file: tamper(func(f *File) {
			f.Attempts[0].Events = f.Attempts[0].Events[:2]
		}), want: []Disagreement{
			{Attempt: "saves-normally", Verdict: VerdictGate, Recorded: "done", Recomputed: "not done"},
			{Attempt: "saves-normally", Verdict: VerdictTerminal, Recorded: "completed", Recomputed: "gate not done"},
		}},
		{name: "open event removed", file: tamper(func(f *File) {
			f.Attempts[0].Events = renumber(f.Attempts[0].Events[1:])
		}), refused: "attempts[0].events"},
		{name: "events reordered", file: tamper(func(f *File) {
			ev := f.Attempts[1].Events
			ev[1], ev[2] = ev[2], ev[1]
			renumber(ev)
		}), refused: "attempts[1].events"},
		{name: "wrong room rewritten", file: tamper(func(f *File) {
			f.Attempts[1].Events[1].Data = map[string]string{"title": "Spectral scan", "room": "north"}
		}), want: []Disagreement{
			{Attempt: "wrong-room", Verdict: VerdictSavedAsAsked, Recorded: "not done", Recomputed: "done"},
			{Attempt: "wrong-room", Verdict: VerdictGate, Recorded: "not done", Recomputed: "done"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saver := &fakeSaver{}
			res, err := Import(findFake, saver, "tampered.json", bytes.NewReader(encoded(t, tt.file)))
			if tt.refused != "" {
				var refused *Error
				if !errors.As(err, &refused) || refused.Path != tt.refused || len(saver.saved) != 0 {
					t.Errorf("Import = %v (stored %d), want a refusal at %s and nothing stored", err, len(saver.saved), tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Disagreements, tt.want) {
				t.Errorf("disagreements:\n got %+v\nwant %+v", res.Disagreements, tt.want)
			}
			for _, a := range res.Run.Attempts {
				if a.Terminal == agent.Completed && !a.Verdicts.Gate.Done {
					t.Errorf("attempt %q stored as completed with its recomputed gate not done", a.Slug)
				}
			}
		})
	}
}

func TestReplayAttemptRebuildsFrames(t *testing.T) {
	a := goodRun().Attempts[1]
	got, err := ReplayAttempt(fakeLab{}, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Frames) != len(a.Events)+1 || got.Frames[0].Event != nil || !reflect.DeepEqual(*got.Frames[2].Event, a.Events[1]) {
		t.Fatalf("frames = %+v, want the initial state then one per event", got.Frames)
	}
	if s := got.Frames[2].State.(fakeState); !s.Saved || s.Room != "south" {
		t.Errorf("state after the save = %+v, want saved to south", s)
	}
	if got.Recomputed.Gate.Done || len(got.Disagreements) != 0 || got.Disagreements == nil {
		t.Errorf("replay = %+v, want the gate not done and an empty disagreement list", got)
	}
}
