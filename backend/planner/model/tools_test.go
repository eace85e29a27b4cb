package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestParseCall checks every tool's mapping to an action: kind, target, value and the
// description plans show.
func TestParseCall(t *testing.T) {
	cases := []struct {
		name, args string
		want       agent.Action
		local      bool // answered by the planner, no action
	}{
		{"click", `{"target":{"role":"button","name":"Save reservation"},"reason":"r"}`,
			agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Save reservation"}, Description: "click button[Save reservation]"}, false},
		{"fill", `{"target":{"label":"Reservation title"},"value":"Spectral \"scan\"","reason":"r"}`,
			agent.Action{Kind: agent.ActFill, Target: agent.Target{Label: "Reservation title"}, Value: `Spectral "scan"`,
				Description: `fill label "Reservation title" with "Spectral \"scan\""`}, false},
		{"select", `{"target":{"role":"combobox","name":"Room"},"value":"North lab","reason":"r"}`,
			agent.Action{Kind: agent.ActSelect, Target: agent.Target{Role: "combobox", Name: "Room"}, Value: "North lab", Description: `select combobox[Room] with "North lab"`}, false},
		{"check", `{"target":{"test_id":"agree"},"reason":"r"}`,
			agent.Action{Kind: agent.ActCheck, Target: agent.Target{TestID: "agree"}, Description: `check test_id "agree"`}, false},
		{"uncheck", `{"target":{"text":"Newsletter"},"reason":"r"}`,
			agent.Action{Kind: agent.ActUncheck, Target: agent.Target{Text: "Newsletter"}, Description: `uncheck text "Newsletter"`}, false},
		{"press", `{"key":"Enter","reason":"r"}`, agent.Action{Kind: agent.ActPress, Value: "Enter", Description: "press Enter"}, false},
		{"press", `{"key":"Control+Enter","target":{"role":"textbox","name":"Body"},"reason":"r"}`,
			agent.Action{Kind: agent.ActPress, Target: agent.Target{Role: "textbox", Name: "Body"}, Value: "Control+Enter", Description: "press textbox[Body] Control+Enter"}, false},
		{"hover", `{"target":{"role":"link","name":"Help"},"reason":"r"}`,
			agent.Action{Kind: agent.ActHover, Target: agent.Target{Role: "link", Name: "Help"}, Description: "hover link[Help]"}, false},
		{"navigate", `{"url":"http://127.0.0.1:8080/rooms","reason":"r"}`,
			agent.Action{Kind: agent.ActNavigate, Value: "http://127.0.0.1:8080/rooms", Description: "navigate to http://127.0.0.1:8080/rooms"}, false},
		{"scroll", `{"direction":"up","reason":"r"}`, agent.Action{Kind: agent.ActPress, Value: "PageUp", Description: "scroll up"}, false},
		{"wait_for", `{"target":{"role":"status"},"reason":"r"}`,
			agent.Action{Kind: agent.ActWaitFor, Target: agent.Target{Role: "status"}, Description: "wait_for status[]"}, false},
		{"upload", `{"target":{"label":"Attachment"},"value":"reports/q3.pdf","reason":"r"}`,
			agent.Action{Kind: agent.ActUpload, Target: agent.Target{Label: "Attachment"}, Value: "reports/q3.pdf",
				Description: `upload label "Attachment" with "reports/q3.pdf"`}, false},
		{"download", `{"target":{"role":"link","name":"March statement"},"reason":"r"}`,
			agent.Action{Kind: agent.ActDownload, Target: agent.Target{Role: "link", Name: "March statement"}, Description: "download link[March statement]"}, false},
		{"done", `{"reason":"r"}`, agent.Action{Kind: agent.ActVerify, Description: "model says done"}, false},
		{"read_page_text", ``, agent.Action{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := parseCall(toolCall{ID: "x", Name: c.name, Args: c.args})
			if err != nil {
				t.Fatal(err)
			}
			if p.Action != c.want || (p.Action == agent.Action{}) != c.local {
				t.Errorf("got %+v, want %+v", p.Action, c.want)
			}
			if !c.local && p.Reason != "r" {
				t.Errorf("reason %q", p.Reason)
			}
		})
	}
	// encoding/json would take "URL" for "url": a model's arguments name each field exactly.
	if _, err := parseCall(toolCall{ID: "x", Name: "navigate", Args: `{"url": "http://127.0.0.1:8080/", "URL": "http://127.0.0.1:9/", "reason": "r"}`}); err == nil ||
		!strings.Contains(err.Error(), `the key "URL" is not the field "url"`) {
		t.Errorf("case-variant arguments: %v, want a refusal naming the key", err)
	}
	// Every kind the tools name is one the executor knows.
	for _, tl := range tools {
		if tl.Name == toolReadPageText || tl.Name == toolDone || tl.Name == toolScroll {
			continue
		}
		known := false
		for _, k := range agent.ActionKinds {
			known = known || string(k) == tl.Name
		}
		if !known {
			t.Errorf("tool %s is no action kind", tl.Name)
		}
	}
}

// TestSnapshot checks the observation the model sees: interactive elements before other named
// ones, fields with values, each part bounded, and the time left last.
func TestSnapshot(t *testing.T) {
	s := agent.Sample{AtMS: 42, URL: "http://127.0.0.1:8080/", Title: "Lab reservations", DialogOpen: true,
		Alert: "Title is required", Notice: "Saved",
		Fields: []agent.Field{{Role: "textbox", Name: "Reservation title", Value: "", Invalid: true}, {Role: "combobox", Name: "Room", Value: "north"}},
		Pairs: []agent.RoleName{{Role: "heading", Name: "New reservation"}, {Role: "main"}, {Role: "button", Name: "Save reservation"},
			{Role: "button", Name: "Save reservation"}, {Role: "textbox", Name: "Reservation title"}},
		Rows: [][]string{{"Spectral scan", "North lab", "committed"}},
		Text: strings.Repeat("word ", 400)}
	for i := range 100 {
		s.Pairs = append(s.Pairs, agent.RoleName{Role: "link", Name: fmt.Sprintf("Link %d", i)})
		s.Rows = append(s.Rows, []string{"row"})
	}
	got := snapshot(s, 95*time.Second)
	for _, want := range []string{"observed at 42 ms): http://127.0.0.1:8080/", "A dialog is open.", "Alert: Title is required",
		"Status notice: Saved", `- textbox "Reservation title" = "" (invalid)`, `- combobox "Room" = "north"`,
		"Table rows (101):", "- Spectral scan | North lab | committed", "… 81 more rows", "call read_page_text for more", `- link "Link 77"`, "- … 23 more not listed"} {
		if !strings.Contains(got, want) {
			t.Errorf("snapshot lacks %q:\n%s", want, got)
		}
	}
	inter, other := strings.Index(got, "Interactive elements:"), strings.Index(got, "Other named elements:")
	if inter < 0 || other >= 0 && other < inter || strings.Count(got, `button "Save reservation"`) != 1 {
		t.Errorf("interactive elements not first, or repeated:\n%s", got)
	}
	if strings.Contains(got, "- main") || !strings.HasSuffix(got, "Time left: 1m35s.") || len(got) > 6000 {
		t.Errorf("snapshot of %d bytes:\n%s", len(got), got)
	}
}
