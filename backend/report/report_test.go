package report

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// hostile is text a stranger's run file may carry, meant to run in whoever opens the report.
const hostile = `<script>window.pwned=1</script>"><img src=x onerror="window.pwned=2">`

// tinyJPEG is a real 8×8 JPEG.
func tinyJPEG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(1, 1, color.Black)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testRun is one attempt with a hostile title, evidence and answer, and two steps whose
// screenshots are shot, missing and not a JPEG.
func testRun() agent.Run {
	v := agent.Verdicts{
		Truth:   agent.Signal{ID: "truth", Label: "stored in the database", Verdict: agent.Verdict{Done: false, Evidence: hostile}},
		Signals: []agent.Signal{{ID: "banner", Label: `"Saved" banner`, Verdict: agent.Verdict{Done: true, Evidence: "shown"}}},
		Gate: agent.NewGate([]agent.Condition{
			{ID: "api", Label: "API has it", Verdict: agent.Unconfirmed("connection refused")},
			{ID: "page", Label: "Page says Saved", Verdict: agent.Verdict{Done: true, Evidence: "text present"}},
		}),
	}
	step := func(i int, before, after string) agent.Step {
		return agent.Step{Index: i, Action: agent.Action{Description: "Save " + hostile, Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Save"}},
			Decision: agent.Decision{Class: agent.ClassCommit, Admission: agent.Allow, Reason: "submits"},
			Before:   agent.Sample{Screenshot: before}, After: agent.Sample{Screenshot: after}, Distance: 0.25, DurationMS: 40}
	}
	return agent.Run{ID: "r1", Task: "notes", Created: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Status: agent.RunImported, Source: hostile,
		Attempts: []agent.Attempt{{Slug: "api-down", Title: hostile, Terminal: agent.Failed, Reason: "the gate does not hold",
			Verdicts: v, Config: agent.DefaultConfig(),
			Answers: []agent.Answer{{Condition: "api", Kind: "http", Error: "connection refused"},
				{Condition: "page", Kind: "page", Raw: []byte(`{"text":"</pre><script>window.pwned=3</script>"}`)}},
			Steps: []agent.Step{step(0, "shots/a.jpg", "shots/gone.jpg"), step(1, "shots/a.jpg", "shots/fake.jpg")}}}}
}

func render(t *testing.T, run agent.Run, media string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, run, media); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func mediaDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "shots"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"shots/a.jpg": tinyJPEG(t), "shots/fake.jpg": []byte("<svg onload=alert(1)>")} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReportEscapesEverythingAndHoldsNoScript(t *testing.T) {
	out := render(t, testRun(), mediaDir(t))
	if strings.Contains(strings.ToLower(out), "<script") || strings.Contains(out, "<img src=x") {
		t.Fatalf("the report carries markup from the run:\n%s", out)
	}
	for _, want := range []string{
		`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:;`,
		`&lt;script&gt;window.pwned=1&lt;/script&gt;`,
		`could not confirm`,
		`no answer: connection refused`,
		`wrong</span>`,
		`<table aria-label="Action ledger of &lt;script&gt;`,
		`<td>Save &lt;script&gt;window.pwned=1&lt;/script&gt;`,
		`<td>commit · allow<br><span class="muted">submits</span></td>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

func TestReportInlinesOnlyTheRunsJPEGs(t *testing.T) {
	out := render(t, testRun(), mediaDir(t))
	if n := strings.Count(out, `src="data:image/jpeg;base64,`); n != 2 {
		t.Errorf("%d screenshots inlined, want 2 (shots/a.jpg, twice)", n)
	}
	for _, want := range []string{"shots/gone.jpg is gone from disk", "shots/fake.jpg is not a JPEG screenshot"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	run := testRun()
	run.Attempts[0].Steps[0].Before.Screenshot = "../../etc/passwd.jpg"
	if out := render(t, run, mediaDir(t)); !strings.Contains(out, "../../etc/passwd.jpg is gone from disk") {
		t.Errorf("a path out of the media folder was not refused")
	}
	if out := render(t, testRun(), ""); !strings.Contains(out, "a run file carries no media") {
		t.Errorf("a run without media does not say so")
	}
}

func TestReportKeepsScreenshotsWithinMaxMedia(t *testing.T) {
	dir := mediaDir(t)
	big := append([]byte{0xff, 0xd8, 0xff}, bytes.Repeat([]byte{0}, 3<<20)...)
	if err := os.WriteFile(filepath.Join(dir, "shots", "big.jpg"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	run := testRun()
	steps := run.Attempts[0].Steps
	for len(steps) < 8 {
		steps = append(steps, steps[0])
	}
	for i := range steps {
		steps[i].Before.Screenshot, steps[i].After.Screenshot = "shots/big.jpg", "shots/big.jpg"
	}
	run.Attempts[0].Steps = steps
	out := render(t, run, dir)
	if len(out) > MaxMedia+1<<20 {
		t.Errorf("the report is %d bytes, over its %d-byte screenshot budget and the text", len(out), MaxMedia)
	}
	inlined := strings.Count(out, `src="data:image/jpeg`)
	if inlined != 3 || !strings.Contains(out, "13 screenshots were left out") {
		t.Errorf("%d screenshots inlined; want 3 within 16 MiB and the other 13 named as left out", inlined)
	}
}

// TestReportShowsTheModelsTurns: a model planner's turns appear with the step they led to,
// and those of the planning that ended the attempt after its steps, every word escaped.
func TestReportShowsTheModelsTurns(t *testing.T) {
	run := testRun()
	a := &run.Attempts[0]
	a.Steps[0].ModelTurns = []agent.ModelTurn{{Model: "openai:gpt-4.1-mini", Messages: 3, Tokens: 900, InTokens: 880, OutTokens: 42, LatencyMS: 310,
		Text: "I will save " + hostile, Calls: []agent.ModelCall{{Name: "click", Arguments: `{"name":"` + hostile + `"}`, Outcome: "proposed"}}}}
	a.ModelTurns = []agent.ModelTurn{
		{Model: "openai:gpt-4.1-mini", Calls: []agent.ModelCall{{Name: agent.DoneCall, Outcome: "refused", Result: "the gate does not hold: " + hostile}}},
		{Error: "the token budget (2000) is spent"},
	}
	out := render(t, run, "")
	if strings.Contains(strings.ToLower(out), "<script") {
		t.Fatalf("the report carries markup from the model's turns:\n%s", out)
	}
	for _, want := range []string{
		`The model's turns that led to this step (1)`,
		`<code>openai:gpt-4.1-mini</code> <span class="muted">3 messages, about 900 tokens sent · 880 in / 42 out tokens · 310 ms</span>`,
		`<pre>I will save &lt;script&gt;`,
		`<code>click</code> proposed`,
		`The model's last turns`,
		`<code>` + agent.DoneCall + `</code> refused`,
		`sent back: the gate does not hold: &lt;script&gt;`,
		"<strong>Turn 2</strong>\n", // it sent nothing: no usage to show
		`<p class="error">the token budget (2000) is spent</p>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	last := strings.Index(out, "The model's last turns")
	if steps := strings.Index(out, "<h3>Steps</h3>"); last < steps {
		t.Errorf("the last turns come at %d, want after the steps at %d", last, steps)
	}
}
