package model

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/labs"
	"observatory/backend/labs/booking"
	script "observatory/backend/planner"
	"observatory/backend/runfile"
	"observatory/backend/runner"
)

// sharedBrowser is one Chromium for every run of the test; the runner's Close leaves it open and
// browsertest closes it when the test ends.
type sharedBrowser struct{ agent.Browser }

func (sharedBrowser) Close() error { return nil }

// bookingScript is what a model would answer to book the lab: five tool calls, each with its
// reason, in a's format.
func bookingScript(a api) ([]reply, []string) {
	reasons := []string{"Open the reservation dialog.", "Title the reservation as asked.",
		"North lab is the room asked for.", "Save the reservation.", "The reservation should be saved now."}
	calls := [][2]string{
		{"click", `{"target":{"role":"button","name":"Reserve slot"}`},
		{"fill", `{"target":{"role":"textbox","name":"Reservation title"},"value":"Spectral scan"`},
		{"select", `{"target":{"role":"combobox","name":"Room"},"value":"North lab"`},
		{"click", `{"target":{"role":"button","name":"Save reservation"}`},
		{"done", `{`},
	}
	replies := make([]reply, len(calls))
	for i, c := range calls {
		reason, _ := json.Marshal(reasons[i])
		sep := ","
		if c[1] == "{" {
			sep = ""
		}
		replies[i] = a.call("call_"+c[0]+string(rune('1'+i)), c[0], c[1]+sep+`"reason":`+string(reason)+"}")
	}
	return replies, reasons
}

// TestBookingInChromium drives the booking lab in real headless Chromium through the runner,
// with the model planner talking to a scripted server through each real SDK client. The
// attempt completes only because the gate proves it; the steps carry the model's reasons.
// On the OpenAI side the same script also runs the notice-nothing-saved attempt: the model
// says done, the gate says not done, and the attempt fails.
func TestBookingInChromium(t *testing.T) {
	chromium := sharedBrowser{browsertest.Launch(t)}
	t.Setenv(keyEnv, testKey)
	for _, a := range apis {
		t.Run(a.name, func(t *testing.T) {
			attempts := []string{"saves-normally"}
			if a.provider == ProviderOpenAI {
				attempts = append(attempts, "notice-nothing-saved")
			}
			var script []reply
			var reasons []string
			for range attempts {
				r, rs := bookingScript(a)
				script, reasons = append(script, r...), rs
			}
			f := newScripted(t, a, script...)
			lab := booking.New()
			turns := map[string][]agent.ModelTurn{}
			r := &runner.Runner{
				Suite:  lab,
				Launch: func(context.Context) (agent.Browser, error) { return chromium, nil },
				Planner: func(spec agent.AttemptSpec) agent.Planner {
					p, err := New(lab.Task(), Config{Models: []ModelConfig{f.model("model-1", keyEnv)}, TimeLimitMS: 60_000})
					if err != nil {
						t.Errorf("New: %v", err)
						return nil
					}
					p.Hooks.Turn = func(tu agent.ModelTurn) { turns[spec.Slug] = append(turns[spec.Slug], tu) }
					return p
				},
			}
			run, err := r.Run(context.Background(), "model-"+a.name, runner.Options{Attempts: attempts})
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Attempts) != len(attempts) {
				t.Fatalf("%d attempts ran, want %d", len(run.Attempts), len(attempts))
			}
			want := map[string]agent.Terminal{"saves-normally": agent.Completed, "notice-nothing-saved": agent.Failed}
			for _, at := range run.Attempts {
				if at.Terminal != want[at.Slug] || at.Verdicts.Gate.Done != (want[at.Slug] == agent.Completed) ||
					at.Verdicts.Truth.Done != at.Verdicts.Gate.Done {
					t.Errorf("%s: %s (%s), gate done %v, truth %v; want %s", at.Slug, at.Terminal, at.Reason,
						at.Verdicts.Gate.Done, at.Verdicts.Truth.Done, want[at.Slug])
				}
				if len(at.Steps) != len(reasons) {
					t.Fatalf("%s: %d steps, want %d", at.Slug, len(at.Steps), len(reasons))
				}
				for i, s := range at.Steps {
					if s.Reason != reasons[i] || s.Error != "" || s.Decision.Admission != agent.Allow {
						t.Errorf("%s step %d: %s, reason %q, error %q, %s; want the model's reason %q", at.Slug, i+1,
							s.Action.Description, s.Reason, s.Error, s.Decision.Admission, reasons[i])
					}
				}
				last := at.Steps[len(at.Steps)-1].Action
				if last.Kind != agent.ActVerify || last.Description != "model says done" {
					t.Errorf("%s: the last step is %+v, want the model's done as a verify", at.Slug, last)
				}
				if tu := turns[at.Slug]; len(tu) != len(reasons) || tu[3].GroundedAtMS == 0 || tu[4].Calls[0].Name != "done" {
					t.Errorf("%s: turns %+v", at.Slug, tu)
				}
			}
			reqs := f.requests()
			if len(reqs) != len(script) {
				t.Fatalf("%d requests, want %d", len(reqs), len(script))
			}
			for i, req := range reqs {
				if req.firstUser() != lab.Task().Intent {
					t.Errorf("request %d starts with %q", i+1, req.firstUser())
				}
				req.checkPairs(t)
			}
			checkOffline(t, run, chromium)
			// The model saw the dialog the first click opened, with its fields.
			if obs := reqs[1].Items[len(reqs[1].Items)-1].Text; !strings.Contains(obs, `textbox "Reservation title"`) ||
				!strings.Contains(obs, `button "Save reservation"`) {
				t.Errorf("the second observation does not show the dialog:\n%s", obs)
			}
		})
	}
}

// checkOffline checks what a model's run leaves behind works without the model: its run file
// carries every model turn and verifies with the same verdicts, and the recorded actions,
// rerun as a scripted plan, reproduce the saves-normally attempt.
func checkOffline(t *testing.T, run agent.Run, chromium agent.Browser) {
	t.Helper()
	var buf bytes.Buffer
	if err := runfile.Encode(&buf, run); err != nil {
		t.Fatal(err)
	}
	f, err := runfile.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runfile.Verify(func(name string, _ json.RawMessage) (agent.Suite, error) { return labs.Get(name) }, f)
	if err != nil || len(res.Disagreements) != 0 {
		t.Fatalf("the exported model run does not verify offline: %v %+v", err, res.Disagreements)
	}
	for i, a := range res.Run.Attempts {
		if a.Terminal != run.Attempts[i].Terminal || a.Verdicts.Gate.Done != run.Attempts[i].Verdicts.Gate.Done ||
			len(a.Steps[0].ModelTurns) == 0 || a.Steps[0].ModelTurns[0].Model == "" {
			t.Errorf("%s after the round trip: %s, gate %v, turns %+v", a.Slug, a.Terminal, a.Verdicts.Gate.Done, a.Steps[0].ModelTurns)
		}
	}
	plan, err := script.Rerun(run.Attempts[0].Steps)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner.Runner{Suite: booking.New(), Launch: func(context.Context) (agent.Browser, error) { return chromium, nil },
		Planner: func(agent.AttemptSpec) agent.Planner { return script.Scripted(plan) }}
	again, err := r.Run(context.Background(), "rerun", runner.Options{Attempts: []string{"saves-normally"}})
	if err != nil {
		t.Fatal(err)
	}
	if a := again.Attempts[0]; a.Terminal != agent.Completed || !a.Verdicts.Gate.Done {
		t.Errorf("rerun without the model: %s (%s)", a.Terminal, a.Reason)
	}
}
