package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools of Playwright MCP that Observatory answers without acting on the page: what they
// would do is outside what an attempt records and guards (another window size, media
// emulation, Playwright code of the agent's own), or there is nothing for them
// to handle. Each answer says why and what to do instead; the page stays as it was.

// noModalState is Playwright MCP's own answer to a modal tool called with no modal state
// pending, as its clients read it. browser_file_upload sets the page's file input directly, so
// no file chooser is ever pending.
func noModalState(tool string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(
		"### Error\nError: The tool \"%s\" can only be used when there is related modal state present.\n"+
			"### Observatory harness\n- No dialog is open; browser_file_upload sets the page's file input directly: give it paths.\n", tool)}}}
}

func (s *server) drop(context.Context, dropArgs) (*mcp.CallToolResult, error) {
	return nil, errors.New("dropping files or data is not an action Observatory's harness can classify and record yet: nothing was done; upload a file with browser_file_upload")
}

func (s *server) runCode(context.Context, runCodeArgs) (*mcp.CallToolResult, error) {
	return nil, errors.New("running Playwright code is not offered: the harness classifies, admits and records one action at a time; use the browser tools, or browser_evaluate for a script on the page")
}

func (s *server) emulate(context.Context, emulateArgs) (*mcp.CallToolResult, error) {
	return nil, errors.New("media emulation stays as the attempt opened it: it is part of what the attempt records, and watching never changes the page")
}
