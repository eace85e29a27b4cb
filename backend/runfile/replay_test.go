package runfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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
	f.Run.Attempts = slices.Clone(f.Run.Attempts)
	for i := range f.Run.Attempts {
		a := &f.Run.Attempts[i]
		a.Events = slices.Clone(a.Events)
		a.Verdicts.Signals = slices.Clone(a.Verdicts.Signals)
		a.Verdicts.Gate.Conditions = slices.Clone(a.Verdicts.Gate.Conditions)
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
			f.Run.Attempts[1].Verdicts.Gate.Done = true
			f.Run.Attempts[1].Terminal = agent.Completed
		}), want: []Disagreement{
			{Attempt: "wrong-room", Verdict: VerdictGate, Recorded: "done", Recomputed: "not done"},
			{Attempt: "wrong-room", Verdict: VerdictTerminal, Recorded: "completed", Recomputed: "gate not done"},
		}},
		{name: "ground truth flipped", file: tamper(func(f *File) { f.Run.Attempts[1].Verdicts.Truth.Done = true }),
			want: []Disagreement{{Attempt: "wrong-room", Verdict: VerdictTruth, Recorded: "done", Recomputed: "not done"}}},
		{name: "signal flipped", file: tamper(func(f *File) { f.Run.Attempts[1].Verdicts.Signals[1].Done = false }),
			want: []Disagreement{{Attempt: "wrong-room", Verdict: "parallax", Recorded: "not done", Recomputed: "done"}}},
		{name: "condition evidence rewritten, flags left alone", file: tamper(func(f *File) {
			f.Run.Attempts[1].Verdicts.Gate.Conditions[2].Evidence = "room north, trust me"
		}), want: []Disagreement{{Attempt: "wrong-room", Verdict: "gate.room (evidence)", Recorded: `"room north, trust me"`, Recomputed: `""`}}},
		{name: "condition verdict flipped", file: tamper(func(f *File) {
			f.Run.Attempts[1].Verdicts.Gate.Conditions[2].Done = true
		}), want: []Disagreement{{Attempt: "wrong-room", Verdict: "gate.room", Recorded: "done", Recomputed: "not done"}}},
		{name: "failed although the gate holds", file: tamper(func(f *File) { f.Run.Attempts[0].Terminal = agent.Failed }),
			want: []Disagreement{{Attempt: "saves-normally", Verdict: VerdictTerminal, Recorded: "failed", Recomputed: "gate done: the effect landed, so the attempt is at least ambiguous"}}},
		{name: "task rewritten", file: tamper(func(f *File) { f.Run.Attempts[0].Task.Intent = "Reserve anything." }),
			want: []Disagreement{{Attempt: "saves-normally", Verdict: VerdictTask, Recorded: `fake: "Reserve anything." from /`,
				Recomputed: `fake: "Reserve \"Spectral scan\" in room \"north\"." from / (the task's own)`}}},
		{name: "notice event removed", file: tamper(func(f *File) {
			f.Run.Attempts[0].Events = f.Run.Attempts[0].Events[:2]
		}), want: []Disagreement{
			{Attempt: "saves-normally", Verdict: "truth (evidence)", Recorded: `"record {Open:false Title:Spectral scan Room:north Saved:true Notice:Saved}"`,
				Recomputed: `"record {Open:false Title:Spectral scan Room:north Saved:true Notice:}"`},
			{Attempt: "saves-normally", Verdict: VerdictGate, Recorded: "done", Recomputed: "not done"},
			{Attempt: "saves-normally", Verdict: "gate.notice", Recorded: "done", Recomputed: "not done"},
			{Attempt: "saves-normally", Verdict: VerdictTerminal, Recorded: "completed", Recomputed: "gate not done"},
		}},
		{name: "open event removed", file: tamper(func(f *File) {
			f.Run.Attempts[0].Events = renumber(f.Run.Attempts[0].Events[1:])
		}), refused: "attempts[0].events"},
		{name: "events reordered", file: tamper(func(f *File) {
			ev := f.Run.Attempts[1].Events
			ev[1], ev[2] = ev[2], ev[1]
			renumber(ev)
		}), refused: "attempts[1].events"},
		{name: "wrong room rewritten", file: tamper(func(f *File) {
			f.Run.Attempts[1].Events[1].Data = map[string]string{"title": "Spectral scan", "room": "north"}
		}), want: []Disagreement{
			{Attempt: "wrong-room", Verdict: VerdictTruth, Recorded: "not done", Recomputed: "done"},
			{Attempt: "wrong-room", Verdict: VerdictGate, Recorded: "not done", Recomputed: "done"},
			{Attempt: "wrong-room", Verdict: "gate.room", Recorded: "not done", Recomputed: "done"},
			{Attempt: "wrong-room", Verdict: VerdictTerminal, Recorded: "failed", Recomputed: "gate done: the effect landed, so the attempt is at least ambiguous"},
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

// TestAV1FileOfTheFirstBuildStillVerifies reads a booking run exported by the build before
// run files had a version 2 (saves-normally and wrong-room, in real Chromium) and checks
// that it verifies against today's booking lab with no disagreement, and exports as v2.
func TestAV1FileOfTheFirstBuildStillVerifies(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "v1-booking.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Verify(findLab, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Disagreements) != 0 {
		t.Errorf("disagreements: %+v", res.Disagreements)
	}
	a := res.Run.Attempts
	if len(a) != 2 || a[0].Terminal != agent.Completed || !a[0].Verdicts.Truth.Done || a[1].Verdicts.Gate.Done ||
		a[1].Params["latency_ms"] != 50 {
		t.Fatalf("recomputed attempts = %+v", a)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, res.Run); err != nil {
		t.Fatal(err)
	}
	again, err := Decode(&buf)
	if err != nil || again.Schema != Schema {
		t.Fatalf("re-exported as %q: %v", again.Schema, err)
	}
	if res2, err := Verify(findLab, again); err != nil || len(res2.Disagreements) != 0 {
		t.Errorf("the v2 export of a v1 file: %v %+v", err, res2.Disagreements)
	}
}
