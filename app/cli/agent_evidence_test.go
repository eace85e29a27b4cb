package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"observatory/backend/agent"
)

// evidenceAttempt is what these tests read of an attempt in a run file: its steps and the
// lab's own event log.
type evidenceAttempt struct {
	Slug    string         `json:"slug"`
	Steps   []agent.Step   `json:"steps"`
	Opening *agent.Traffic `json:"opening"`
	Events  []struct {
		Type string            `json:"type"`
		Data map[string]string `json:"data"`
	} `json:"events"`
}

// evidenceAttempts reads every attempt of a run file.
func evidenceAttempts(t *testing.T, file string) []evidenceAttempt {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Attempts []evidenceAttempt `json:"attempts"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Attempts
}

// bookingInputs are the inputs puppeteer-fast.js and playwright-book.js make, as the recorder
// must see them.
var bookingInputs = []string{"click Reserve slot", "fill Reservation title", "select Room", "click Save reservation"}

// observedOf is what an attempt's observed steps were: kind and target name.
func observedOf(a evidenceAttempt) []agent.Step {
	return slices.DeleteFunc(slices.Clone(a.Steps), func(s agent.Step) bool { return s.Provenance != agent.Observed })
}

func inputWords(steps []agent.Step) []string {
	var out []string
	for _, s := range steps {
		out = append(out, string(s.Action.Kind)+" "+s.Action.Target.Name)
	}
	return out
}

// TestRecorderCannotBeFooled: a script of the page and a Puppeteer agent (page.evaluate, and raw
// DevTools Runtime.evaluate in every execution context it finds, the recorder's isolated world
// included) call, replace and delete anything that could be the recorder's entry point, with
// made-up inputs, and dispatch untrusted events, before, between and after the agent's real
// inputs: the trace holds exactly the real inputs, in order, nothing forged and nothing lost.
func TestRecorderCannotBeFooled(t *testing.T) {
	needAgents(t)
	rows, file, _ := runAgent(t, t.TempDir(), "puppeteer-fast.js", "hostile", []string{"saves-normally"})
	if r := rows[0]; !r.Gate || r.Terminal != agent.Completed {
		t.Errorf("gate %v, %s: %s", r.Gate, r.Terminal, r.Reason)
	}
	for _, a := range evidenceAttempts(t, file) {
		steps := observedOf(a)
		if got := inputWords(steps); !slices.Equal(got, bookingInputs) {
			t.Errorf("%s: observed %q, want exactly %q", a.Slug, got, bookingInputs)
		}
		for _, s := range steps {
			if s.Before.URL == "" || s.Before.Seq == 0 {
				t.Errorf("%s: step %q has no before read at its input", a.Slug, s.Action.Description)
			}
		}
	}
}

// TestObservedEvidenceBackToBack: an agent fires its inputs with no pause between them while
// other attempts run beside it (the lab's own, two at a time); in each of 20 attempts every observed step's before, after
// and requests are its own, checked against the lab's event log: the save the lab logged
// (title and room) is what the Save click's before shows, its POST is on that step alone, the
// steps before it show the page before the save, and the page load is on no step.
func TestObservedEvidenceBackToBack(t *testing.T) {
	needAgents(t)
	const runs = 20
	task := filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml")
	stop := loadWithRuns(t)
	_, file, _ := execAgent(t, Env{}, task, t.TempDir(), "puppeteer-fast.js", "", []string{"saves-normally"}, "--repeat", fmt.Sprint(runs))
	// Playwright over CDP fills by inserting text and chooses by script: the same evidence.
	_, pwFile, _ := execAgent(t, Env{}, task, t.TempDir(), "playwright-book.js", "", []string{"saves-normally"}, "--repeat", "3")
	stop()
	attempts := evidenceAttempts(t, file)
	if len(attempts) != runs {
		t.Fatalf("%d attempts, want %d", len(attempts), runs)
	}
	for _, a := range evidenceAttempts(t, pwFile) {
		if problems := checkEvidence(a); len(problems) > 0 {
			t.Errorf("Playwright %s:\n  %s", a.Slug, strings.Join(problems, "\n  "))
		}
	}
	good := 0
	for _, a := range attempts {
		if problems := checkEvidence(a); len(problems) > 0 {
			t.Errorf("%s:\n  %s", a.Slug, strings.Join(problems, "\n  "))
			continue
		}
		good++
	}
	t.Logf("%d/%d attempts with every observed step's evidence its own", good, runs)
}

// loadWithRuns runs the booking lab's own attempts, two at a time, over and over until the
// returned function is called, which waits for the one under way to stop.
func loadWithRuns(t *testing.T) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	dir := t.TempDir()
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			Execute(ctx, Env{Stdout: io.Discard, Stderr: io.Discard, Assets: fstest.MapFS{}},
				[]string{"run", "--lab", "booking", "--no-video", "--repeat", "2", "--parallel", "2", "--data-dir", dir})
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// checkEvidence lists what is wrong with the evidence of one attempt that booked as
// bookingInputs.
func checkEvidence(a evidenceAttempt) []string {
	var bad []string
	fail := func(f string, args ...any) { bad = append(bad, fmt.Sprintf(f, args...)) }
	steps := observedOf(a)
	if got := inputWords(steps); !slices.Equal(got, bookingInputs) {
		return []string{fmt.Sprintf("observed %q, want %q", got, bookingInputs)}
	}
	var saved []map[string]string
	for _, e := range a.Events {
		if e.Type == "save_requested" {
			saved = append(saved, e.Data)
		}
	}
	if len(saved) != 1 {
		return []string{fmt.Sprintf("the lab logged %d saves, want 1", len(saved))}
	}
	open, fill, save := steps[0], steps[1], steps[3]
	field := func(s agent.Sample, name string) string {
		for _, f := range s.Fields {
			if f.Name == name {
				return f.Value
			}
		}
		return "?"
	}
	isSaved := func(s agent.Sample) bool { return strings.Contains(s.Notice+s.Text, "Reservation saved") }
	// Befores: the page at each input, before its default action.
	if open.Before.DialogOpen {
		fail("the open click's before shows the dialog open")
	}
	if !fill.Before.DialogOpen || field(fill.Before, "Reservation title") != "" {
		fail("the fill's before: dialog %v, title %q; want the open dialog, empty", fill.Before.DialogOpen, field(fill.Before, "Reservation title"))
	}
	if t := field(save.Before, "Reservation title"); !save.Before.DialogOpen || t != saved[0]["title"] ||
		field(save.Before, "Room") != saved[0]["room"] || isSaved(save.Before) {
		fail("the Save click's before: dialog %v, title %q, room %q, saved %v; the lab saved %v", save.Before.DialogOpen, t,
			field(save.Before, "Room"), isSaved(save.Before), saved[0])
	}
	// Afters: the page at the next input (the look taken before it, or the page as that input
	// found it), the last once settled.
	for i, s := range steps[:3] {
		if isSaved(s.After) || !s.After.DialogOpen {
			fail("step %d's after shows the page past the next input (saved %v, dialog %v)", i+1, isSaved(s.After), s.After.DialogOpen)
		}
	}
	if t := field(fill.After, "Reservation title"); t != saved[0]["title"] || field(open.After, "Reservation title") != "" {
		fail("the fill's after shows the title %q, the open click's %q", t, field(open.After, "Reservation title"))
	}
	if r := field(steps[2].After, "Room"); r != saved[0]["room"] {
		fail("the select's after shows the room %q", r)
	}
	if !isSaved(save.After) || save.After.DialogOpen {
		fail("the Save click's after does not show the saved page")
	}
	// Requests: sent between the step's input and the next; the save's POST on Save alone.
	for i, s := range steps {
		for _, r := range s.Traffic.Requests {
			if r.Method == "POST" && strings.HasSuffix(r.URL, "/api/reservations") && i != 3 {
				fail("the save's POST is on step %d (%s)", i+1, s.Action.Description)
			}
			if r.StartMS+1 < s.StartMS || (i < 3 && r.StartMS > steps[i+1].StartMS+1) {
				fail("step %d (%s, %d–%d ms) holds %s %s sent at %d ms", i+1, s.Action.Description, s.StartMS,
					s.StartMS+s.DurationMS, r.Method, r.URL, r.StartMS)
			}
		}
	}
	if !slices.ContainsFunc(save.Traffic.Requests, func(r agent.Request) bool {
		return r.Method == "POST" && strings.HasSuffix(r.URL, "/api/reservations")
	}) {
		fail("the save's POST is not on the Save click")
	}
	if a.Opening == nil || !slices.ContainsFunc(a.Opening.Requests, func(r agent.Request) bool { return r.Method == "GET" && r.StartMS < open.StartMS }) {
		fail("the page load is not the attempt's opening")
	}
	for _, s := range steps {
		if s.Evidence != "" && s.Action.Kind != agent.ActSelect {
			fail("step %q: %s", s.Action.Description, s.Evidence)
		}
	}
	return bad
}
