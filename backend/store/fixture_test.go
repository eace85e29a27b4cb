package store

import (
	"encoding/json"
	"fmt"
	"time"

	"observatory/backend/agent"
)

var t0 = time.Date(2025, 3, 14, 9, 26, 53, 589000000, time.UTC)

// testRun builds a realistic finished run by hand: two attempts of five steps each, with
// events, screenshots, a video and verdicts that disagree in places.
func testRun(id string) agent.Run {
	return agent.Run{ID: id, Task: "booking", Spec: json.RawMessage(`{"schema":"observatory.task/v1","name":"booking"}`), Created: t0, Status: agent.RunFinished, Source: "live",
		Attempts: []agent.Attempt{
			testAttempt("saves-normally", agent.Completed, true, 0),
			testAttempt("notice-without-record", agent.Failed, false, time.Minute),
		}}
}

func testAttempt(slug string, term agent.Terminal, saved bool, offset time.Duration) agent.Attempt {
	plan := agent.Plan{
		{ID: "open-dialog", Description: "Open reservation dialog", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Reserve slot", Alias: "Book a slot"}},
		{ID: "fill-title", Description: "Fill task title", Kind: agent.ActFill, Target: agent.Target{Role: "textbox", Name: "Reservation title"}, Value: "Spectral scan"},
		{ID: "choose-room", Description: "Choose a room", Kind: agent.ActSelect, Target: agent.Target{Role: "combobox", Name: "Room"}, Value: "north"},
		{ID: "submit", Description: "Submit reservation form", Kind: agent.ActSubmit, Target: agent.Target{Role: "button", Name: "Save reservation"}},
		{ID: "verify", Description: "Verify committed reservation", Kind: agent.ActVerify},
	}
	a := agent.Attempt{Slug: slug, Title: "Attempt " + slug, Task: agent.Task{Name: "booking", Intent: "Reserve it.", StartURL: "/", Origins: []string{"http://127.0.0.1:1"}},
		Fault: "none", Params: map[string]int{"latency_ms": 50},
		Config: agent.DefaultConfig(), Plan: plan, Terminal: term, Reason: "because " + slug,
		Started: t0.Add(offset), Viewport: &agent.Size{Width: 1000, Height: 700}, Video: slug + "/video.webm", Trace: slug + ".trace.zip", Steps: []agent.Step{}, Events: []agent.Event{}}
	for i, act := range plan {
		before := agent.Sample{AtMS: int64(100 * i), URL: "http://127.0.0.1:1/", Pairs: []agent.RoleName{{Role: "button", Name: "Reserve slot"}},
			Rows: [][]string{}, Screenshot: fmt.Sprintf("%s/%d-before.png", slug, i),
			Viewport: &agent.Size{Width: 1000, Height: 700}, ScreenshotSize: &agent.Size{Width: 1000, Height: 700}}
		after := before
		after.AtMS += 50
		after.DialogOpen = i > 0 && i < 4
		after.Fields = []agent.Field{{Role: "textbox", Name: "Reservation title", Value: "Spectral scan"}}
		after.FormPresent, after.FormValid = true, true
		after.Screenshot = fmt.Sprintf("%s/%d-after.png", slug, i)
		if i >= 3 {
			after.Notice = "Reservation saved"
			if saved {
				after.Rows = [][]string{{"Spectral scan", "north", "saved"}}
			}
		}
		a.Steps = append(a.Steps, agent.Step{Index: i, Action: act,
			Decision: agent.Decision{Class: agent.ClassPrepare, Admission: agent.Allow, Reason: "prepares", Fingerprint: fmt.Sprintf("fp%d", i)},
			Resolved: act.Target.Name, Before: before, After: after, Distance: 0.25 * float64(i%3),
			StartMS: int64(100 * i), DurationMS: 42, Reason: "step " + act.ID, Blocked: []string{"GET http://elsewhere.example/x"}})
		if act.Kind == agent.ActSubmit {
			a.Steps[i].Traffic = agent.Traffic{
				Requests: []agent.Request{{Method: "POST", URL: "http://127.0.0.1:1/api/reservations", ResourceType: "fetch",
					Status: 500, StatusText: "Internal Server Error", StartMS: 310, DurationMS: 25, Size: 31,
					RequestHeaders: []agent.Header{{Name: "authorization", Value: "••••••"}},
					RequestBody:    &agent.Body{MimeType: "application/json", Text: `{"room":"north"}`}}},
				Console: []agent.ConsoleMessage{{Level: "error", Text: "save failed", Location: "http://127.0.0.1:1/:9:3", AtMS: 336}},
				Errors:  []agent.PageError{{Message: "boom", Stack: "Error: boom", AtMS: 337}},
				Dropped: agent.Dropped{Requests: 2},
			}
		}
		a.Events = append(a.Events, agent.Event{Seq: i + 1, AtMS: int64(100*i + 10), Type: "event-" + act.ID,
			Data: map[string]string{"step": act.ID}})
	}
	gate := agent.NewGate([]agent.Condition{
		{ID: "record", Label: "Committed record exists", Verdict: agent.Verdict{Done: saved, Evidence: "rows"}},
		{ID: "notice", Label: "Success notice is present", Verdict: agent.Verdict{Done: true, Evidence: "notice"}},
	})
	a.Verdicts = agent.Verdicts{
		Truth: agent.Signal{ID: "truth", Label: "saved as asked", Verdict: agent.Verdict{Done: saved, Evidence: "store"}},
		Signals: []agent.Signal{
			{ID: "notice", Label: "success notice", Verdict: agent.Verdict{Done: true, Evidence: "notice shown"}},
			{ID: "parallax", Label: "Parallax's check", Verdict: agent.Verdict{Done: true, Evidence: "valid form"}},
		},
		Gate: gate,
	}
	a.Answers = []agent.Answer{{Condition: "record", Kind: "http", Raw: json.RawMessage(`{"status":200}`)}}
	return a
}

// record writes run through the Recorder the way a live run does, handing each step the
// events that arrived with it. Without finish it stops after the first attempt's steps, the
// way a process dies mid-run.
func record(rec agent.Recorder, run agent.Run, finish bool) error {
	if err := rec.RunStarted(run); err != nil {
		return err
	}
	for i, a := range run.Attempts {
		head := a
		// As the runner does: an attempt starts with no steps, events, answers or verdicts,
		// and before its page, which says its viewport, is open.
		head.Steps, head.Events, head.Answers, head.Terminal, head.Reason, head.Verdicts, head.Video, head.Trace = nil, nil, nil, "", "", agent.Verdicts{}, "", ""
		head.Viewport = nil
		if err := rec.AttemptStarted(run.ID, i, head); err != nil {
			return err
		}
		for i, st := range a.Steps {
			if err := rec.StepRecorded(run.ID, a.Slug, st, a.Events[i:i+1]); err != nil {
				return err
			}
		}
		if !finish {
			return nil
		}
		if err := rec.AttemptFinished(run.ID, a); err != nil {
			return err
		}
	}
	return rec.RunFinished(run.ID, run.Status)
}
