package browser

import (
	"context"

	"observatory/backend/agent"
)

// observeAimJS is the observation script run on the elements a target matches: the sample
// first, then, in the same task and so of the same page, the look at the one element matched
// (see look), none for another count.
var observeAimJS = `(els, arg) => {
  const out = (` + observeJS + `)(arg);
  if (out !== null && typeof out === "object") out.aim = els.length === 1 ? (` + lookJS + `)(els[0]) : null;
  return out;
}`

// aimAt notes that the pointer was moved onto t (an approach before a commit, whose target is
// measured right after the observation that follows): the observations until the next action
// take t's look with their sample, in their own round trip (see sampleCall). A target inside
// a child frame is not aimed at: the observation reads the page's own document.
func (p *Page) aimAt(t agent.Target) {
	if t.IsZero() || !t.Frames.IsZero() {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.aim = t
}

// sampleCall runs the observation script with args, on the page or, while a target is aimed
// at (see aimAt), on that target's matches, keeping its look. A call on the target that fails
// for any reason but a navigation or the page's end is made again on the page: the target's
// look is evidence for the record, and never costs the observation.
func (p *Page) sampleCall(ctx context.Context, args []any) (any, error) {
	p.mu.Lock()
	t := p.aim
	p.mu.Unlock()
	onPage := func() (any, error) {
		return call(ctx, p.limits(), func() (any, error) { return p.driven().Evaluate(observeJS, args) })
	}
	if t.IsZero() {
		return onPage()
	}
	loc, err := p.locate(t)
	if err != nil {
		return onPage()
	}
	raw, err := call(ctx, p.limits(), func() (any, error) { return loc.EvaluateAll(observeAimJS, args) })
	if err != nil && !navigatedAway(err) && p.life.err() == nil && ctx.Err() == nil {
		return onPage()
	}
	if got, ok := raw.(map[string]any); ok {
		var seen lookAnswer
		if aim := got["aim"]; aim != nil && remarshal(aim, &seen) == nil {
			p.keepLook(t, seen)
		}
		delete(got, "aim")
	}
	return raw, err
}
