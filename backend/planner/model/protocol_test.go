package model

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

const bookingIntent = `Book North lab for "Spectral scan".`

func taskOf(intent string) agent.Task { return agent.Task{Name: "test", Intent: intent, StartURL: "/"} }

// page is a sample of the booking lab's start page, observed at atMS.
func page(atMS int64) agent.Sample {
	return agent.Sample{AtMS: atMS, URL: "http://127.0.0.1:8080/", Title: "Lab reservations",
		Pairs: []agent.RoleName{{Role: "main"}, {Role: "heading", Name: "Lab reservations"}, {Role: "button", Name: "Reserve slot"},
			{Role: "table", Name: "Reservations"}},
		Text: "Lab reservations Reserve slot Reservations Reservation Room State"}
}

// ran is the step the executor records when it ran p's action, allowed, on before.
func ran(i int, p agent.Proposal, before, after agent.Sample) agent.Step {
	return agent.Step{Index: i, Action: p.Action, Reason: p.Reason, Before: before, After: after, Distance: 0.25,
		Decision: agent.Decision{Class: agent.ClassPrepare, Admission: agent.Allow, Reason: "prepare action within budget (0 of 8 used)"},
		Resolved: p.Action.Target.TextOf()}
}

// TestProtocol drives both APIs through the real SDK clients against scripted servers and
// checks what the clients send: the intent first and word for word, the tools, the key in
// the provider's header, the previous call's result matched to its ID, and no streaming.
func TestProtocol(t *testing.T) {
	for _, a := range apis {
		t.Run(a.name, func(t *testing.T) {
			f := newScripted(t, a,
				a.call("call_1", "click", `{"target":{"role":"button","name":"Reserve slot"},"reason":"Open the reservation dialog."}`),
				a.call("call_2", "fill", `{"target":{"role":"textbox","name":"Reservation title"},"value":"Spectral scan","reason":"Give the title."}`))
			p, _ := planner(t, bookingIntent, Config{}, f)
			ctx := context.Background()

			first, err := p.Next(ctx, page(5), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := agent.Action{ID: "m1-click", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Reserve slot"},
				Description: "click button[Reserve slot]"}
			if first.Action != want || first.Reason != "Open the reservation dialog." || first.End {
				t.Fatalf("first proposal %+v, want %+v with the model's reason", first, want)
			}
			history := []agent.Step{ran(0, first, page(5), page(60))}
			second, err := p.Next(ctx, page(60), history)
			if err != nil {
				t.Fatal(err)
			}
			if second.Action.Kind != agent.ActFill || second.Action.Value != "Spectral scan" || second.Reason != "Give the title." {
				t.Fatalf("second proposal %+v", second)
			}

			reqs := f.requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			for i, r := range reqs {
				if r.Model != "model-1" || r.firstUser() != bookingIntent || !strings.Contains(r.System, "one action at a time") {
					t.Errorf("request %d: model %q, first user message %q, system %q", i, r.Model, r.firstUser(), r.System)
				}
				if got := a.key(f.headers(i)); got != testKey {
					t.Errorf("request %d carried key %q", i, got)
				}
				if !slices.Equal(r.Tools, []string{"click", "fill", "select", "check", "uncheck", "press", "hover", "navigate",
					"scroll", "wait_for", "upload", "download", "read_page_text", "done"}) {
					t.Errorf("request %d offers tools %v", i, r.Tools)
				}
				r.checkPairs(t)
			}
			if obs := reqs[0].Items[len(reqs[0].Items)-1]; obs.Kind != "user" || !strings.Contains(obs.Text, `button "Reserve slot"`) ||
				!strings.Contains(obs.Text, "Time left: 10m0s") {
				t.Errorf("the first request ends with %+v, want the observation with the time left", obs)
			}
			var call, result *item
			for i, it := range reqs[1].Items {
				switch it.Kind {
				case "call":
					call = &reqs[1].Items[i]
				case "result":
					result = &reqs[1].Items[i]
				}
			}
			if call == nil || call.ID != "call_1" || call.Name != "click" {
				t.Fatalf("the second request replays the call as %+v", call)
			}
			if result == nil || result.ID != "call_1" || result.IsError || !strings.HasPrefix(result.Text, "Done: prepare action, allowed") ||
				!strings.Contains(result.Text, "0.25") {
				t.Errorf("the previous step's result went back as %+v", result)
			}

			turns := p.Turns()
			if len(turns) != 2 || turns[0].Model != a.provider+":model-1" {
				t.Fatalf("turns %+v", turns)
			}
			tu := turns[1]
			if tu.Step != 1 || tu.InTokens != usageIn || tu.OutTokens != usageOut || tu.GroundedAtMS != 60 ||
				len(tu.Calls) != 1 || tu.Calls[0].Outcome != "proposed" || tu.CostUSD != (usageIn*2+usageOut*8)/1e6 {
				t.Errorf("turn %+v", tu)
			}
			b, _ := json.Marshal(turns)
			if strings.Contains(string(b), testKey) {
				t.Error("a turn records the API key")
			}
		})
	}
}
