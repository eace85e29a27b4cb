package browser

import (
	"context"
	"encoding/json"

	"observatory/backend/agent"
)

var _ agent.Evaluator = (*Page)(nil)

// Evaluate runs an agent's script, a JavaScript function, in the page, or on the element
// a.Target names, and returns its result as JSON.
func (p *Page) Evaluate(ctx context.Context, a agent.Action) (string, error) {
	run := func() (any, error) { return p.driven().Evaluate(a.Value) }
	if !a.Target.IsZero() {
		loc, err := p.locate(a.Target)
		if err != nil {
			return "", err
		}
		run = func() (any, error) { return loc.Evaluate(a.Value, nil) }
	}
	v, err := call(ctx, p.limits(), run)
	if err != nil {
		return "", p.fail("evaluate the agent's script", err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(out), nil
}
