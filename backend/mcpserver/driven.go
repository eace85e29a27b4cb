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
	p.Action.To = to
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
