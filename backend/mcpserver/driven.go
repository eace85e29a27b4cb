package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
)

// drag drags one element onto another, as one recorded step (agent.ActDrag).
func (s *server) drag(ctx context.Context, in dragArgs) (*mcp.CallToolResult, error) {
	from, err := s.target(ctx, in.StartTarget, in.StartRef)
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	to, err := s.target(ctx, in.EndTarget, in.EndRef)
	if err != nil {
		return nil, fmt.Errorf("end: %w", err)
	}
	end := in.EndElement
	if end == "" {
		end = to.String()
	}
	p := s.proposal(agent.ActDrag, from, "", describe("Drag", in.StartElement, from)+" onto "+end)
	p.Action.To = &to
	return s.act(ctx, p)
}

// resize sets the page's viewport, as one recorded step (agent.ActResize): every sample
// after it records the new size.
func (s *server) resize(ctx context.Context, in resizeArgs) (*mcp.CallToolResult, error) {
	w, h := math.Round(in.Width), math.Round(in.Height)
	if w < 1 || h < 1 {
		return nil, errors.New("give width and height, each at least 1")
	}
	size := fmt.Sprintf("%.0fx%.0f", w, h)
	return s.act(ctx, s.proposal(agent.ActResize, agent.Target{}, size, "Resize the window to "+size))
}

// tabStep opens a tab (loading url when given), selects one or closes one (the current when
// no index is given) in the attempt's browser context, as one recorded step: actions go to
// the tab opened or selected from then on, and each step's page says which tab it was read from.
func (s *server) tabStep(ctx context.Context, in tabsArgs) (*mcp.CallToolResult, error) {
	index := ""
	if in.Index != nil {
		if *in.Index < 0 || *in.Index != math.Trunc(*in.Index) {
			return nil, fmt.Errorf("index %g is no tab index: give 0, 1, …", *in.Index)
		}
		index = fmt.Sprintf("%.0f", *in.Index)
	}
	switch {
	case in.Action == "new" && in.URL == "":
		return s.act(ctx, s.proposal(agent.ActTabNew, agent.Target{}, "", "Open a new tab"))
	case in.Action == "new":
		return s.act(ctx, s.proposal(agent.ActTabNew, agent.Target{}, in.URL, "Open a new tab at "+in.URL))
	case in.Action == "select" && index == "":
		return nil, errors.New("give index: the tab to select, as browser_tabs list numbers them")
	case in.Action == "select":
		return s.act(ctx, s.proposal(agent.ActTabSelect, agent.Target{}, index, "Select tab "+index))
	case index == "":
		return s.act(ctx, s.proposal(agent.ActTabClose, agent.Target{}, "", "Close the current tab"))
	}
	return s.act(ctx, s.proposal(agent.ActTabClose, agent.Target{}, index, "Close tab "+index))
}

// closePage closes the attempt's tabs, as one recorded step: the attempt goes on, on a fresh
// blank tab of the same browser context, where the next browser_navigate loads its page.
// Only task_done, a budget, the time limit or the client leaving ends the attempt.
func (s *server) closePage(ctx context.Context, _ noArgs) (*mcp.CallToolResult, error) {
	return s.act(ctx, s.proposal(agent.ActClose, agent.Target{}, "", "Close the browser's tabs"))
}
