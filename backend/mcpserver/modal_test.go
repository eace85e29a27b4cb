package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
)

// TestAToolDeclaresWhatItDoesUnderADialog: whether a dialog the page keeps open refuses a
// tool is part of the tool's definition; a definition that says nothing is refused when it is
// registered, so a new tool cannot forget it. (The refusal's words, against Playwright MCP's,
// are checked on a real dialog in app/cli's TestMCPDragResizeTabsCloseAndADialogAreRecordedSteps.)
func TestAToolDeclaresWhatItDoesUnderADialog(t *testing.T) {
	register := func(m modal) (panicked string) {
		defer func() {
			if r := recover(); r != nil {
				panicked = fmt.Sprint(r)
			}
		}()
		srv := mcp.NewServer(&mcp.Implementation{Name: "t"}, nil)
		s := &server{opts: Options{Task: agent.Task{Name: "t"}}}
		tool(srv, s, def{"browser_new", "New", "A new tool", true, nil, m}, func(context.Context, noArgs) (*mcp.CallToolResult, error) { return text("ok"), nil })
		return ""
	}
	if got := register(0); !strings.Contains(got, "tool browser_new: declares no modal state handling") {
		t.Errorf("a tool that declares nothing under a dialog: panic %q, want it refused", got)
	}
	for _, m := range []modal{refusedUnderModal, handlesModal, besideModal} {
		if got := register(m); got != "" {
			t.Errorf("a tool declaring %d: panic %q", m, got)
		}
	}
	// With no dialog open (a server of no session has none), nothing is refused.
	if res := (&server{}).refuseUnderModal("browser_snapshot", refusedUnderModal); res != nil {
		t.Errorf("refused with no dialog open: %+v", res)
	}
}
