package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest/policy"
)

// clients is the test package of npm clients: Playwright MCP at a pinned version (the
// reference) and the MCP SDK (scripts/setup.sh installs them).
var clients, _ = filepath.Abs(filepath.Join("testdata", "clients"))

// schema is the part of a JSON schema the comparison reads.
type schema struct {
	Type                 any               `json:"type"`
	Enum                 []any             `json:"enum"`
	AnyOf                []schema          `json:"anyOf"`
	Properties           map[string]schema `json:"properties"`
	Required             []string          `json:"required"`
	Items                *schema           `json:"items"`
	AdditionalProperties any               `json:"additionalProperties"`
}

// types are the JSON types s allows (its anyOf branches' included); nil for any type.
func (s schema) types() []string {
	var out []string
	switch t := s.Type.(type) {
	case string:
		out = append(out, t)
	case []any:
		for _, x := range t {
			out = append(out, fmt.Sprint(x))
		}
	}
	for _, a := range s.AnyOf {
		out = append(out, a.types()...)
	}
	return out
}

// enum is every value s allows when it lists them (its anyOf branches' included; a branch
// of type null allows null); nil when any value of its types goes.
func (s schema) enum() []any {
	if len(s.AnyOf) == 0 {
		return s.Enum
	}
	var out []any
	for _, a := range s.AnyOf {
		switch {
		case len(a.Enum) > 0:
			out = append(out, a.Enum...)
		case slices.Equal(a.types(), []string{"null"}):
			out = append(out, nil)
		default:
			return nil
		}
	}
	return out
}

// accepts lists where ours refuses a value ref accepts: a type, an enum value, a required
// member, a member or an item schema missing (at is the path, for the messages).
func accepts(at string, ref, ours schema) []string {
	var bad []string
	if rt, ot := ref.types(), ours.types(); len(ot) > 0 {
		for _, t := range rt {
			if !slices.Contains(ot, t) && (t != "integer" || !slices.Contains(ot, "number")) {
				bad = append(bad, fmt.Sprintf("%s: type %v refuses %s", at, ot, t))
			}
		}
	}
	if oe := ours.enum(); len(oe) > 0 {
		re := ref.enum()
		if len(re) == 0 {
			bad = append(bad, fmt.Sprintf("%s: enum %v, where the reference takes any %v", at, oe, ref.types()))
		}
		for _, v := range re {
			if !slices.Contains(oe, v) {
				bad = append(bad, fmt.Sprintf("%s: enum %v refuses %v", at, oe, v))
			}
		}
	}
	for _, r := range ours.Required {
		if !slices.Contains(ref.Required, r) {
			bad = append(bad, fmt.Sprintf("%s: requires %s, which the reference does not", at, r))
		}
	}
	for name, rp := range ref.Properties {
		op, ok := ours.Properties[name]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: no argument %s", at, name))
			continue
		}
		bad = append(bad, accepts(at+"."+name, rp, op)...)
	}
	if ref.Items != nil {
		if ours.Items == nil {
			bad = append(bad, fmt.Sprintf("%s: no item schema", at))
		} else {
			bad = append(bad, accepts(at+"[]", *ref.Items, *ours.Items)...)
		}
	}
	if _, refMap := ref.AdditionalProperties.(map[string]any); refMap && len(ref.Properties) == 0 {
		if _, ok := ours.AdditionalProperties.(map[string]any); !ok && ours.AdditionalProperties != nil {
			bad = append(bad, fmt.Sprintf("%s: refuses the reference's map members", at))
		}
	}
	return bad
}

// connect is a real MCP client's session with a server of no session, over in-memory
// transports: enough for the tools that touch no page.
func connect(t *testing.T) *mcp.ClientSession {
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
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// listTools lists the server's tools through a real MCP client.
func listTools(t *testing.T) map[string]*mcp.Tool {
	t.Helper()
	res, err := connect(t).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

// referenceTools lists the default tools of Playwright MCP, the pinned npm package, started
// over standard input and output (pointed at Debian's Chromium, headless; listing tools
// opens no browser) by a client written with the MCP SDK.
func referenceTools(t *testing.T) map[string]schema {
	t.Helper()
	cli := filepath.Join(clients, "node_modules", "@playwright", "mcp", "cli.js")
	if _, err := exec.LookPath("node"); err != nil {
		policy.Unavailable(t, err)
	}
	if _, err := os.Stat(cli); err != nil {
		policy.Unavailable(t, fmt.Errorf("%w (scripts/setup.sh installs the MCP test clients)", err))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "listtools.mjs", "node", cli, "--headless", "--isolated", "--no-sandbox",
		"--executable-path", "/usr/bin/chromium")
	cmd.Dir = clients
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("listing Playwright MCP's tools: %v", err)
	}
	var tools []struct {
		Name        string `json:"name"`
		InputSchema schema `json:"inputSchema"`
	}
	if err := json.Unmarshal(out, &tools); err != nil {
		t.Fatal(err)
	}
	ref := map[string]schema{}
	for _, tl := range tools {
		ref[tl.Name] = tl.InputSchema
	}
	return ref
}

// TestToolsAcceptWhatPlaywrightMCPAccepts: every tool of Playwright MCP's default set (the
// pinned @playwright/mcp from npm, listed live) exists here with its name, and accepts every
// argument it accepts: each name, type and enum value, and no required argument it does
// not require (Observatory's own, such as ref beside target, stay optional). A client
// written for Playwright MCP then calls them unchanged.
func TestToolsAcceptWhatPlaywrightMCPAccepts(t *testing.T) {
	ref := referenceTools(t)
	if len(ref) < 20 {
		t.Fatalf("the reference lists %d tools", len(ref))
	}
	tools := listTools(t)
	for name, rs := range ref {
		tl, ok := tools[name]
		if !ok {
			t.Errorf("no tool %s", name)
			continue
		}
		raw, _ := json.Marshal(tl.InputSchema)
		var ours schema
		if err := json.Unmarshal(raw, &ours); err != nil {
			t.Fatal(err)
		}
		for _, bad := range accepts(name, rs, ours) {
			t.Error(bad)
		}
	}
	t.Logf("%d reference tools, %d of ours", len(ref), len(tools))
}

// TestToolsOfTheTask: task_intent and task_done are there, task_done with its structured
// result's schema, and every tool's read-only hint says whether it acts on the page.
func TestToolsOfTheTask(t *testing.T) {
	tools := listTools(t)
	for _, name := range []string{"task_intent", "task_done"} {
		if _, ok := tools[name]; !ok {
			t.Errorf("no tool %s", name)
		}
	}
	if done := tools["task_done"]; done != nil && done.OutputSchema == nil {
		t.Error("task_done has no output schema for its structured result")
	}
	reads := []string{"browser_snapshot", "browser_wait_for", "browser_take_screenshot", "browser_console_messages",
		"browser_network_requests", "browser_network_request", "browser_find", "task_intent"}
	for name, tl := range tools {
		ro := tl.Annotations != nil && tl.Annotations.ReadOnlyHint
		if ro != slices.Contains(reads, name) {
			t.Errorf("%s: read-only hint %v", name, ro)
		}
	}
}

// TestAcceptsFindsWhatOursRefuses: the comparison itself catches each way a schema can
// refuse what the reference takes.
func TestAcceptsFindsWhatOursRefuses(t *testing.T) {
	parse := func(s string) schema {
		var out schema
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	ref := parse(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string","enum":["x","y"]},
		"c":{"anyOf":[{"type":"string","enum":["light"]},{"type":"null"}]},"d":{"type":"array","items":{"type":"string"}}},"required":["a"]}`)
	for _, c := range []struct{ ours, says string }{
		{`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"},"c":{"type":["null","string"]},"d":{"type":"array","items":{"type":"string"}}}}`, "refuses number"},
		{`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string","enum":["x"]},"c":{"type":["null","string"]},"d":{"type":"array","items":{"type":"string"}}}}`, "refuses y"},
		{`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string"},"c":{"type":["null","string"],"enum":["light"]},"d":{"type":"array","items":{"type":"string"}}}}`, "refuses <nil>"},
		{`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string"},"c":{"type":["null","string"]}}}`, "no argument d"},
		{`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string"},"c":{"type":["null","string"]},"d":{"type":"array","items":{"type":"string"}}},"required":["a","b"]}`, "requires b"},
	} {
		bad := accepts("t", ref, parse(c.ours))
		if len(bad) != 1 || !strings.Contains(bad[0], c.says) {
			t.Errorf("%s: %v, want one complaint that %s", c.ours, bad, c.says)
		}
	}
	if bad := accepts("t", ref, ref); len(bad) > 0 {
		t.Errorf("the reference against itself: %v", bad)
	}
}
