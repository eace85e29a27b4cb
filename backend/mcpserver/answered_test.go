package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolsObservatoryAnswersWithoutActing: the Playwright MCP tools that do not act here
// answer as a client expects: the modal tools with Playwright MCP's own words when nothing is
// pending, and the others with a tool error saying why, each
// valid by the schema.
func TestToolsObservatoryAnswersWithoutActing(t *testing.T) {
	ctx := context.Background()
	cs := connect(t)
	for _, c := range []struct {
		tool    string
		args    map[string]any
		isError bool
		says    string
	}{
		{"browser_handle_dialog", map[string]any{"accept": true}, true, `Error: The tool "browser_handle_dialog" can only be used when there is related modal state present.`},
		{"browser_file_upload", map[string]any{}, true, `Error: The tool "browser_file_upload" can only be used when there is related modal state present.`},
		{"browser_emulate_media", map[string]any{"colorScheme": "dark", "media": nil}, true, "emulation stays"},
		{"browser_drop", map[string]any{"target": "e1", "data": map[string]any{"text/plain": "hi"}}, true, "dropping"},
		{"browser_run_code_unsafe", map[string]any{"code": "async (page) => 1"}, true, "browser_evaluate"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Errorf("%s %v: %v", c.tool, c.args, err)
			continue
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError != c.isError || !strings.Contains(text, c.says) || (c.isError && !strings.HasPrefix(text, "### Error\n")) {
			t.Errorf("%s %v: error %v:\n%s\nwant error %v saying %q", c.tool, c.args, res.IsError, text, c.isError, c.says)
		}
	}
}

// TestHugeArgumentsOfTheDrivenToolsAreRefused: a drag's targets, a new tab's URL and a
// prompt's answer are bounded as every other argument, refused before anything runs.
func TestHugeArgumentsOfTheDrivenToolsAreRefused(t *testing.T) {
	huge := strings.Repeat("a", MaxArgument+1)
	for _, in := range []any{dragArgs{StartTarget: "e1", EndTarget: huge}, tabsArgs{Action: "new", URL: huge}, dialogArgs{Accept: true, PromptText: huge}} {
		if err := checkSizes(in); err == nil || !strings.Contains(err.Error(), "over the 64 KiB") {
			t.Errorf("%T with a huge argument: %v", in, err)
		}
	}
}
