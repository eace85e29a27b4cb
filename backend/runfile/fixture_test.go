package runfile

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"observatory/backend/agent"
)

var update = flag.Bool("update", false, "rewrite testdata/good-v2.json from goodRun")

var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// goodRun is a finished run of the fake lab: one attempt saved as asked, one saved to the
// wrong room behind an identical notice. Its recorded verdicts are the lab's own.
func goodRun() agent.Run {
	return agent.Run{ID: "0123456789abcdef", Task: "fake", Created: t0, Status: agent.RunFinished, Source: "live",
		Attempts: []agent.Attempt{
			fakeAttempt("saves-normally", "north", agent.Completed),
			fakeAttempt("wrong-room", "south", agent.Failed),
		}}
}

func fakeAttempt(slug, room string, term agent.Terminal) agent.Attempt {
	lab := fakeLab{}
	plan := agent.Plan{
		{ID: "open", Description: "Open dialog", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Reserve"}},
		{ID: "save", Description: "Fill and save", Kind: agent.ActSubmit, Target: agent.Target{Role: "button", Name: "Save"}, Value: room},
		{ID: "verify", Description: "Verify", Kind: agent.ActVerify},
	}
	a := agent.Attempt{Slug: slug, Title: "Attempt " + slug, Task: lab.Task(), Config: agent.DefaultConfig(), Plan: plan,
		Params:   map[string]int{"latency_ms": 500},
		Terminal: term, Reason: "it ended " + string(term), Started: t0,
		Events: []agent.Event{
			{Seq: 1, AtMS: 10, Type: "open"},
			{Seq: 2, AtMS: 520, Type: "save", Data: map[string]string{"title": "Spectral scan", "room": room}},
			{Seq: 3, AtMS: 530, Type: "notice", Data: map[string]string{"text": savedNotice}},
		}}
	for i, act := range plan {
		after := agent.Sample{AtMS: int64(100*i + 50), URL: "http://127.0.0.1:1/", DialogOpen: i == 0,
			FormPresent: i == 0, FormValid: false, Pairs: []agent.RoleName{{Role: "button", Name: "Reserve"}}}
		if i > 0 {
			after.Notice = savedNotice
		}
		a.Steps = append(a.Steps, agent.Step{Index: i, Action: act,
			Decision: agent.Decision{Class: agent.ClassPrepare, Admission: agent.Allow, Reason: "fine"},
			Resolved: act.Target.Name, Before: agent.Sample{AtMS: int64(100 * i)}, After: after,
			Distance: 0.5, StartMS: int64(100 * i), DurationMS: 40})
	}
	v, err := lab.Judge(a.Evidence())
	if err != nil {
		panic(err)
	}
	a.Verdicts = v
	return a
}

// goodFile is goodRun's run file, stamped at a fixed time.
func goodFile() File { return New(goodRun(), t0.Add(time.Hour)) }

func encoded(t testing.TB, f File) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := EncodeFile(&buf, f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGoldenGoodFile(t *testing.T) {
	got := encoded(t, goodFile())
	path := filepath.Join("testdata", "good-v2.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("EncodeFile output differs from %s (run with -update after a deliberate format change)", path)
	}
}
