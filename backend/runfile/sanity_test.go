package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

func TestImpossibleValuesAreRefusedWithTheirPath(t *testing.T) {
	farFuture := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, path, problem string
		edit                func(*File)
	}{
		{"created on 9999-12-31", "run.created", "9999-12-31T00:00:00Z is in the future", func(f *File) { f.Run.Created = farFuture }},
		{"created two days ahead", "run.created", "in the future", func(f *File) { f.Run.Created = time.Now().Add(48 * time.Hour) }},
		{"exported in the future", "exported", "in the future", func(f *File) { f.Exported = farFuture }},
		{"started in the future", "attempts[1].started", "in the future", func(f *File) { f.Run.Attempts[1].Started = farFuture }},
		{"a negative duration", "attempts[0].steps[2].duration_ms", "-40 ms: a time or duration", func(f *File) { f.Run.Attempts[0].Steps[2].DurationMS = -40 }},
		{"a negative start", "attempts[0].steps[0].start_ms", "-1 ms", func(f *File) { f.Run.Attempts[0].Steps[0].StartMS = -1 }},
		{"a negative sample time", "attempts[1].steps[1].after.at_ms", "-5 ms", func(f *File) { f.Run.Attempts[1].Steps[1].After.AtMS = -5 }},
		{"a negative event time", "attempts[0].events[2].at_ms", "-530 ms", func(f *File) { f.Run.Attempts[0].Events[2].AtMS = -530 }},
		{"a negative step index", "attempts[0].steps[0].index", "step -1 is the attempt's step 0", func(f *File) { f.Run.Attempts[0].Steps[0].Index = -1 }},
		{"a step index out of order", "attempts[1].steps[1].index", "step 9999 is the attempt's step 1", func(f *File) { f.Run.Attempts[1].Steps[1].Index = 9999 }},
		{"a step index twice", "attempts[0].steps[2].index", "step 1 is the attempt's step 2", func(f *File) { f.Run.Attempts[0].Steps[2].Index = 1 }},
		{"a negative distance", "attempts[0].steps[1].distance", "distance -0.5: a Jaccard distance", func(f *File) { f.Run.Attempts[0].Steps[1].Distance = -0.5 }},
		{"a distance past 1", "attempts[0].steps[1].distance", "distance 2", func(f *File) { f.Run.Attempts[0].Steps[1].Distance = 2 }},
		{"a slug with a newline", "attempts[1].attempt", `attempt slug "evil\nrow": want 1 to 64`, func(f *File) { f.Run.Attempts[1].Slug = "evil\nrow" }},
		{"a slug with an escape", "attempts[0].attempt", `attempt slug "x\x1b[2J"`, func(f *File) { f.Run.Attempts[0].Slug = "x\x1b[2J" }},
		{"a slug in capitals", "attempts[0].attempt", `attempt slug "Saves"`, func(f *File) { f.Run.Attempts[0].Slug = "Saves" }},
		{"a trial its slug does not end in", "attempts[0].trial", `a trial's slug ends in .t2`, func(f *File) { f.Run.Attempts[0].Trial = 2 }},
		{"a trial past the most", "attempts[1].trial", "trial 1001: want 1 to 1000", func(f *File) {
			f.Run.Attempts[1].Slug, f.Run.Attempts[1].Trial = agent.TrialSlug(f.Run.Attempts[1].Slug, 1001), 1001
		}},
		{"a negative run budget", "run.budgets", "budget commits is -1", func(f *File) { f.Run.Budgets = &agent.Budgets{Commits: -1} }},
		{"an empty viewport", "attempts[0].viewport.width", "0: a width is more than 0", func(f *File) { f.Run.Attempts[0].Viewport = &agent.Size{Height: 700} }},
		{"a sample read at no height", "attempts[0].steps[1].before.viewport.height", "-3: a height", func(f *File) { f.Run.Attempts[0].Steps[1].Before.Viewport = &agent.Size{Width: 1000, Height: -3} }},
		{"a screenshot too wide", "attempts[1].steps[0].after.screenshot_size.width", "2000000: a width", func(f *File) {
			f.Run.Attempts[1].Steps[0].After.ScreenshotSize = &agent.Size{Width: 2_000_000, Height: 700}
		}},
		{"a pixel ratio past the most", "attempts[1].steps[0].after.pixel_ratio", "4: a pixel ratio is 1 to 3", func(f *File) { f.Run.Attempts[1].Steps[0].After.PixelRatio = 4 }},
		{"a pixel ratio under 1", "attempts[1].steps[0].before.pixel_ratio", "0.5: a pixel ratio", func(f *File) { f.Run.Attempts[1].Steps[0].Before.PixelRatio = 0.5 }},
		{"a DOM snapshot named as a page", "attempts[0].steps[0].after.dom", `"page.html": a DOM snapshot's name ends in .dom.txt`, func(f *File) { f.Run.Attempts[0].Steps[0].After.DOM = "page.html" }},
		{"a DOM snapshot named as a screenshot", "attempts[0].steps[1].before.dom", "ends in .dom.txt", func(f *File) { f.Run.Attempts[0].Steps[1].Before.DOM = "a.jpg" }},
		{"a DOM snapshot outside the media folder", "attempts[1].steps[0].after.dom", `"../../x.dom.txt" is not a plain file name`, func(f *File) { f.Run.Attempts[1].Steps[0].After.DOM = "../../x.dom.txt" }},
		{"a skipped DOM's reason past the bound", "attempts[1].steps[0].before.dom_skipped", "16 KiB", func(f *File) {
			f.Run.Attempts[1].Steps[0].Before.DOMSkipped = strings.Repeat("x", MaxProseBytes+1)
		}},
		{"a negative attempt budget", "attempts[1].config", "budget money_usd", func(f *File) { f.Run.Attempts[1].Config.Budgets = &agent.Budgets{MoneyUSD: -2} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := goodFile()
			tt.edit(&f)
			data, err := json.Marshal(f.format()) // not EncodeFile, which refuses to write such a file
			if err != nil {
				t.Fatal(err)
			}
			_, err = Decode(bytes.NewReader(data))
			var refused *Error
			if !errors.As(err, &refused) || refused.Path != tt.path || !strings.Contains(refused.Problem, tt.problem) {
				t.Errorf("Decode = %v\nwant an *Error at %s containing %q", err, tt.path, tt.problem)
			}
		})
	}
}

func TestTimesWithinTheClockSkewAreAccepted(t *testing.T) {
	f := goodFile()
	f.Run.Created = time.Now().Add(MaxClockSkew - time.Hour).UTC()
	f.Run.Attempts[0].Steps[0].Distance, f.Run.Attempts[0].Steps[1].Distance = 0, 1
	data, err := json.Marshal(f.format())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("Decode of a run created an hour inside the skew, distances 0 and 1: %v", err)
	}
}

// TestSizesSurviveTheRoundTrip writes an attempt's viewport and a sample's viewport,
// screenshot size, pixel ratio and DOM snapshot (one kept, one skipped), and reads them back;
// a file without them reads as none.
func TestSizesSurviveTheRoundTrip(t *testing.T) {
	f := goodFile()
	vp, shot := agent.Size{Width: 1000, Height: 700}, agent.Size{Width: 2000, Height: 1400}
	f.Run.Attempts[0].Viewport = &vp
	f.Run.Attempts[0].Steps[0].After.Viewport, f.Run.Attempts[0].Steps[0].After.ScreenshotSize = &vp, &shot
	f.Run.Attempts[0].Steps[0].After.PixelRatio = 2
	f.Run.Attempts[0].Steps[0].After.DOM = "0123456789abcdef.dom.txt"
	f.Run.Attempts[0].Steps[0].Before.DOMSkipped = "the page's DOM was 2.5 MiB, more than the 2 MiB a snapshot keeps"
	data, err := json.Marshal(f.format())
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	a := got.Run.Attempts[0]
	if a.Viewport == nil || *a.Viewport != vp {
		t.Errorf("the attempt's viewport reads as %+v, want %+v", a.Viewport, vp)
	}
	after := a.Steps[0].After
	if after.Viewport == nil || *after.Viewport != vp || after.ScreenshotSize == nil || *after.ScreenshotSize != shot || after.PixelRatio != 2 {
		t.Errorf("the sample reads as viewport %+v, screenshot %+v at pixel ratio %v; want %+v and %+v at 2", after.Viewport, after.ScreenshotSize, after.PixelRatio, vp, shot)
	}
	if before := a.Steps[0].Before; after.DOM != "0123456789abcdef.dom.txt" || !strings.Contains(before.DOMSkipped, "2.5 MiB") {
		t.Errorf("the DOM snapshot reads as %q, the skipped one as %q", after.DOM, before.DOMSkipped)
	}
	if b := got.Run.Attempts[1]; b.Viewport != nil || b.Steps[0].Before.Viewport != nil {
		t.Errorf("an attempt recorded without sizes reads with viewport %+v, a sample with %+v", b.Viewport, b.Steps[0].Before.Viewport)
	}
}

// TestBudgetsSurviveTheRoundTrip writes a run and an attempt with budgets and reads them back.
func TestBudgetsSurviveTheRoundTrip(t *testing.T) {
	f := goodFile()
	f.Run.Budgets = &agent.Budgets{Commits: 3, WallClockMS: 60000}
	f.Run.Attempts[0].Config.Budgets = &agent.Budgets{Steps: 5, Tokens: 9000, MoneyUSD: 0.25}
	data, err := json.Marshal(f.format())
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if *got.Run.Budgets != *f.Run.Budgets || *got.Run.Attempts[0].Config.Budgets != *f.Run.Attempts[0].Config.Budgets || got.Run.Attempts[1].Config.Budgets != nil {
		t.Errorf("read back run budgets %+v, attempt budgets %+v and %+v", got.Run.Budgets, got.Run.Attempts[0].Config.Budgets, got.Run.Attempts[1].Config.Budgets)
	}
}

// TestSuiteRunSurvivesTheRoundTripAndMerge writes a run of a suite run and reads its suite
// run back; shards of one suite run merge into a run of it, shards of two into a run of none.
func TestSuiteRunSurvivesTheRoundTripAndMerge(t *testing.T) {
	f := goodFile()
	f.Run.SuiteRun = "smoke@20261203T124121-41451e"
	data, err := json.Marshal(f.format())
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bytes.NewReader(data))
	if err != nil || got.Run.SuiteRun != f.Run.SuiteRun {
		t.Fatalf("read back suite run %q (%v), want %q", got.Run.SuiteRun, err, f.Run.SuiteRun)
	}
	for _, c := range []struct{ a, b, want string }{{"smoke@1", "smoke@1", "smoke@1"}, {"smoke@1", "smoke@2", ""}} {
		one, two := shardOf("shard1.json", "saves-normally"), shardOf("shard2.json", "wrong-room")
		one.File.Run.SuiteRun, two.File.Run.SuiteRun = c.a, c.b
		merged, err := Merge(findFake, []Shard{one, two})
		if err != nil || merged.SuiteRun != c.want {
			t.Errorf("shards of suite runs %s and %s merge into suite run %q (%v), want %q", c.a, c.b, merged.SuiteRun, err, c.want)
		}
	}
}
