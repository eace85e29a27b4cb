package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
)

// playwrightMCP is Playwright MCP's tools as its README lists them (microsoft/playwright-mcp):
// each argument with its JSON type, and whether Playwright MCP requires it.
var playwrightMCP = map[string]map[string]struct {
	typ      string
	required bool
}{
	"browser_navigate":         {"url": {"string", true}},
	"browser_navigate_back":    {},
	"browser_snapshot":         {"filename": {"string", false}},
	"browser_click":            {"element": {"string", false}, "target": {"string", true}, "doubleClick": {"boolean", false}, "button": {"string", false}, "modifiers": {"array", false}},
	"browser_type":             {"element": {"string", false}, "target": {"string", true}, "text": {"string", true}, "submit": {"boolean", false}, "slowly": {"boolean", false}},
	"browser_fill_form":        {"fields": {"array", true}},
	"browser_select_option":    {"element": {"string", false}, "target": {"string", true}, "values": {"array", true}},
	"browser_press_key":        {"key": {"string", true}},
	"browser_hover":            {"element": {"string", false}, "target": {"string", true}},
	"browser_wait_for":         {"time": {"number", false}, "text": {"string", false}, "textGone": {"string", false}},
	"browser_take_screenshot":  {"element": {"string", false}, "target": {"string", false}, "type": {"string", false}, "filename": {"string", false}, "fullPage": {"boolean", false}},
	"browser_file_upload":      {"paths": {"array", false}},
	"browser_tabs":             {"action": {"string", true}, "index": {"integer", false}, "url": {"string", false}},
	"browser_console_messages": {"level": {"string", false}, "all": {"boolean", false}},
	"browser_network_requests": {"static": {"boolean", false}, "filter": {"string", false}},
}

type schema struct {
	Type       any               `json:"type"`
	Properties map[string]schema `json:"properties"`
	Required   []string          `json:"required"`
	Items      *schema           `json:"items"`
}

func (s schema) is(typ string) bool {
	switch t := s.Type.(type) {
	case string:
		return t == typ || (typ == "number" && t == "integer")
	case []any:
		for _, x := range t {
			if x == typ || (typ == "integer" && x == "integer") {
				return true
			}
		}
	}
	return false
}

// listTools lists the server's tools through a real MCP client, over in-memory transports.
func listTools(t *testing.T) map[string]*mcp.Tool {
	t.Helper()
	ctx := context.Background()
	srv := New(Options{Task: agent.Task{Name: "t", Intent: "Do it."}})
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

// TestToolsMatchPlaywrightMCP: every Playwright MCP tool listed has the same name and every
// argument of the same name and type, so an agent prompted for Playwright MCP calls them
// unchanged. Required arguments stay required, except target, which ref (its older spelling)
// may replace; no tool requires an argument Playwright MCP does not.
func TestToolsMatchPlaywrightMCP(t *testing.T) {
	tools := listTools(t)
	for name, args := range playwrightMCP {
		tl, ok := tools[name]
		if !ok {
			t.Errorf("no tool %s", name)
			continue
		}
		raw, _ := json.Marshal(tl.InputSchema)
		var s schema
		if err := json.Unmarshal(raw, &s); err != nil || !s.is("object") {
			t.Errorf("%s: input schema %s is not an object schema", name, raw)
			continue
		}
		for arg, want := range args {
			p, ok := s.Properties[arg]
			if !ok {
				t.Errorf("%s: no argument %s", name, arg)
				continue
			}
			if !p.is(want.typ) {
				t.Errorf("%s.%s: type %v, want %s", name, arg, p.Type, want.typ)
			}
			if want.required && arg != "target" && !slices.Contains(s.Required, arg) {
				t.Errorf("%s.%s is optional; Playwright MCP requires it", name, arg)
			}
		}
		if _, ok := args["target"]; ok {
			if _, ok := s.Properties["ref"]; !ok {
				t.Errorf("%s: no ref, target's older spelling", name)
			}
		}
		for _, r := range s.Required {
			if _, ok := args[r]; !ok {
				t.Errorf("%s requires %s, which Playwright MCP does not know", name, r)
			}
		}
	}
	fields := tools["browser_fill_form"]
	raw, _ := json.Marshal(fields.InputSchema)
	var s schema
	_ = json.Unmarshal(raw, &s)
	item := s.Properties["fields"].Items
	if item == nil {
		t.Fatalf("browser_fill_form.fields has no item schema: %s", raw)
	}
	var got []string
	for k := range item.Properties {
		got = append(got, k)
	}
	sort.Strings(got)
	if strings.Join(got, ",") != "name,ref,target,type,value" {
		t.Errorf("a form field's members: %v, want name, target (or ref), type, value", got)
	}
	for _, name := range []string{"task_intent", "task_done"} {
		if _, ok := tools[name]; !ok {
			t.Errorf("no tool %s", name)
		}
	}
	if done := tools["task_done"]; done != nil && done.OutputSchema == nil {
		t.Error("task_done has no output schema for its structured result")
	}
	for name, tl := range tools {
		ro := tl.Annotations != nil && tl.Annotations.ReadOnlyHint
		acts := !slices.Contains([]string{"browser_snapshot", "browser_wait_for", "browser_take_screenshot", "browser_tabs", "browser_console_messages", "browser_network_requests", "task_intent"}, name)
		if ro == acts {
			t.Errorf("%s: read-only hint %v, but it %s", name, ro, map[bool]string{true: "acts on the page", false: "only reads"}[acts])
		}
	}
}
