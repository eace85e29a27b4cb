package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
)

// A JavaScript dialog an action sets off stays open, as in Playwright MCP: the reply lists it
// under "### Modal state", every other browser tool is refused until browser_handle_dialog
// answers it, and the answer is a recorded step like any action.

// pendingDialog is the dialog the attempt's page keeps open for the agent, if any. It never
// starts an attempt.
func (s *server) pendingDialog() (agent.PendingDialog, bool) {
	var d agent.PendingDialog
	var open bool
	if s.opts.Session == nil { // a server of no session drives no page
		return d, false
	}
	_ = s.opts.Session.Peek(func(page agent.Page, _ []agent.Step) error {
		if k, ok := page.(agent.DialogKeeper); ok {
			d, open = k.Dialog()
		}
		return nil
	})
	return d, open
}

// modalState is Playwright MCP's "### Modal state" section for d, in its words (the message
// quoted as it is, on one line).
func modalState(d agent.PendingDialog) string {
	return fmt.Sprintf("### Modal state\n- [\"%s\" dialog with message \"%s\"]: can be handled by browser_handle_dialog\n", d.Type, oneLine(d.Message))
}

// modal is what a tool does while the page keeps a dialog open, as each tool's definition
// declares it (see def); the zero value declares nothing and is refused at registration.
type modal int

const (
	// refusedUnderModal: the tool is refused, in Playwright MCP's words, until the dialog is
	// answered (every browser tool but the one that answers it).
	refusedUnderModal modal = iota + 1
	// handlesModal: the tool answers the dialog (browser_handle_dialog).
	handlesModal
	// besideModal: the tool neither reads nor acts on the page and runs as ever (the task's
	// own tools).
	besideModal
)

// declared reports whether m is one of the declarations above.
func (m modal) declared() bool { return m >= refusedUnderModal && m <= besideModal }

// refuseUnderModal is Playwright MCP's refusal of the tool named tool, which m says is
// refused while a dialog is open; nil when none is open, or m says the tool runs with one.
func (s *server) refuseUnderModal(tool string, m modal) *mcp.CallToolResult {
	if m != refusedUnderModal {
		return nil
	}
	d, open := s.pendingDialog()
	if !open {
		return nil
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(
		"### Error\nError: Tool %q does not handle the modal state.\n%s", tool, modalState(d))}}}
}

// handleDialog accepts (with promptText for a prompt) or dismisses the dialog the page keeps
// open, as a recorded step; with none open it answers as Playwright MCP does.
func (s *server) handleDialog(ctx context.Context, in dialogArgs) (*mcp.CallToolResult, error) {
	d, open := s.pendingDialog()
	if !open {
		return noModalState("browser_handle_dialog"), nil
	}
	kind, verb := agent.ActDialogDismiss, "Dismiss"
	if in.Accept {
		kind, verb = agent.ActDialogAccept, "Accept"
	}
	desc := fmt.Sprintf("%s the %s dialog %q", verb, d.Type, oneLine(d.Message))
	if in.Accept && d.Type == "prompt" {
		desc += fmt.Sprintf(" answering %q", in.PromptText)
	}
	return s.act(ctx, s.proposal(kind, agent.Target{}, in.PromptText, desc))
}
