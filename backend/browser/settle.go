package browser

import (
	"context"
	_ "embed"
	"time"
)

// settleJS waits, in the page, until none of its fetches waits for an answer, the last was
// answered a moment ago at least, and it has painted two frames across which nothing
// observe.js reads changed; its arguments bound the wait and give that moment, in
// milliseconds.
//
//go:embed settle.js
var settleJS string

// pageQuietMS bounds one wait of settleJS: a page that keeps changing (an animation driven by
// its script) is then taken as it is, and one still waiting for an answer is waited for
// again.
const pageQuietMS = 250

// afterAnswerMS is how long after the page's last answer settleJS waits at least, so an
// update the page schedules on a short timer once answered (a notice shown 50 ms later) is in
// the look; a step that sent nothing waits for no timer.
const afterAnswerMS = 100

// Settle implements agent.Settler: it waits, at most settleTimeout, until no request the page
// sent waits for its answer (counted from the page's request and response events, and by the
// page itself for its fetches, since the browser's word of a request can come late) and then
// for the page to have done what the answers asked of it: afterAnswerMS since the last answer,
// then two painted frames across which nothing an observation reads changed (see settleJS). A
// request the page sent meanwhile starts the wait again. The page's death or ctx ends the
// wait; a page navigating away is left to the observation, which waits for its load.
func (p *Page) Settle(ctx context.Context) {
	deadline := time.Now().Add(settleTimeout)
	for {
		sent, ok := p.watch.idle(ctx, deadline)
		wait := min(time.Until(deadline), pageQuietMS*time.Millisecond)
		if !ok || wait <= 0 {
			return
		}
		got, err := call(ctx, p.limits(), func() (any, error) { return p.driven().Evaluate(settleJS, []any{wait.Milliseconds(), afterAnswerMS}) })
		if err != nil || got == "moving" || got == "quiet" && p.watch.sentCount() == sent {
			return
		}
	}
}
