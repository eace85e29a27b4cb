package browser

import (
	"context"

	"observatory/backend/agent"
)

var _ agent.Grouper = (*Page)(nil)

// Group opens a group named name in the page's Playwright trace, when one is recorded: the
// calls made until EndGroup show under it in Playwright's trace viewer.
func (p *Page) Group(ctx context.Context, name string) error {
	if !recordsTrace(p.opts) {
		return nil
	}
	return do(ctx, p.limits(), func() error { return p.bc.Tracing().Group(name) })
}

// EndGroup closes the group Group opened last.
func (p *Page) EndGroup(ctx context.Context) error {
	if !recordsTrace(p.opts) {
		return nil
	}
	return do(ctx, p.limits(), func() error { return p.bc.Tracing().GroupEnd() })
}
