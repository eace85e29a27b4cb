package model

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Wait reports the planner waiting because every model has refused, and its end.
type Wait struct {
	// Waiting is true when the wait starts and false when a model answers again.
	Waiting bool `json:"waiting"`
	// Reason says why, naming each model's refusal; ForMS is the first wait's length.
	Reason string `json:"reason,omitempty"`
	ForMS  int64  `json:"for_ms,omitempty"`
}

// modelState is what the planner knows of one model's availability.
type modelState struct {
	// refusedUntil is when a model that refused may be asked again.
	refusedUntil time.Time
	// refusals counts its refusals in a row; each doubles the next cooldown.
	refusals int
	// broken is why the model failed for good; it is not asked again.
	broken string
	// last is its latest refusal, for the waiting report.
	last string
}

// answer is a response with who gave it, how long it took and what recovery it needed.
type answer struct {
	response
	model   int
	latency time.Duration
	retries int
	notes   []string
}

// ask sends req to the current model and recovers from what goes wrong: transient errors
// are retried with backoff, refusals and broken models rotate to the next, and when every
// model has refused it waits for the first to be askable again. Every sleep ends by the time
// limit. It returns an error only for the context, a limit, or every model broken.
func (p *Planner) ask(ctx context.Context, req request) (answer, error) {
	var a answer
	var w waiting
	same := 0 // retries on the current model
	for {
		if err := p.limits(ctx); err != nil {
			return a, err
		}
		i, wait, err := p.pick()
		if err != nil {
			return a, err
		}
		if i < 0 {
			wait = min(wait, p.left())
			if w.passes == 0 {
				p.report(Wait{Waiting: true, Reason: p.refusals(), ForMS: wait.Milliseconds()})
			}
			w.pass(&a, p.refusals(), wait)
			if err := p.sleep(ctx, wait); err != nil {
				return a, err
			}
			continue
		}
		res, lat, perr := p.request(ctx, i, req)
		p.spend(i, res.InTokens, res.OutTokens)
		if perr == nil {
			p.state[i].refusals = 0
			if w.passes > 0 {
				p.report(Wait{Waiting: false})
			}
			a.response, a.model, a.latency = res, i, lat
			return a, nil
		}
		if ctx.Err() != nil {
			return a, ctx.Err()
		}
		name := p.models[i].Name()
		switch perr.Kind {
		case errTransient:
			if same < p.cfg.Recovery.Retries {
				same++
				a.retries++
				d := min(p.backoff(same), max(p.left(), 0))
				a.notes = append(a.notes, fmt.Sprintf("%s: %v; retry %d of %d in %s", name, perr, same, p.cfg.Recovery.Retries, d.Round(time.Millisecond)))
				if err := p.sleep(ctx, d); err != nil {
					return a, err
				}
				continue
			}
			if perr.NoAnswer {
				p.state[i].broken = fmt.Sprintf("the API at %s did not answer, %d times: %s", p.models[i].BaseURL, same+1, perr.Message)
				a.notes = append(a.notes, fmt.Sprintf("%s failed for good: %s", name, p.state[i].broken))
				break
			}
			a.notes = append(a.notes, fmt.Sprintf("%s: %v after %d retries; treated as a refusal", name, perr, same))
			p.refuse(i, perr)
		case errRefused:
			p.refuse(i, perr)
			a.notes = append(a.notes, fmt.Sprintf("%s refused: %v", name, perr))
		case errBroken:
			p.state[i].broken = perr.Error()
			a.notes = append(a.notes, fmt.Sprintf("%s failed for good: %v", name, perr))
		}
		same = 0
		if next := p.rotate(i); next != i {
			a.notes = append(a.notes, fmt.Sprintf("rotated from %s to %s", name, p.models[next].Name()))
		}
	}
}

// waiting is one wait for a model, which may take several passes when the models refuse
// again once their cooldown ends; its turn has one note for it, kept up to date.
type waiting struct {
	passes int
	total  time.Duration
	note   int // the note's index in the answer's notes
}

// pass counts one more pass of the wait, of length d, after the refusals given.
func (w *waiting) pass(a *answer, refusals string, d time.Duration) {
	if w.passes == 0 {
		w.note = len(a.notes)
		a.notes = append(a.notes, "")
	}
	w.passes++
	w.total += d
	a.notes[w.note] = fmt.Sprintf("every model refused (%s); waited %s", refusals, w.total.Round(time.Millisecond))
	if w.passes > 1 {
		a.notes[w.note] += fmt.Sprintf(" in %d passes", w.passes)
	}
}

// request sends one request to model i under the request timeout (and never past the time
// limit), classifying any failure.
func (p *Planner) request(ctx context.Context, i int, req request) (response, time.Duration, *providerError) {
	limit := min(p.cfg.Recovery.RequestTimeout, p.left())
	rctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	t0 := p.now()
	res, err := p.complete(rctx, i, req)
	lat := p.now().Sub(t0)
	var perr *providerError
	switch {
	case err == nil && res.Refusal != "":
		return res, lat, &providerError{Kind: errRefused, Message: "refusal: " + clip(res.Refusal, 300)}
	case err == nil:
		return res, lat, nil
	case ctx.Err() == nil && errors.Is(rctx.Err(), context.DeadlineExceeded):
		return res, lat, &providerError{Kind: errTransient, Message: fmt.Sprintf("no answer within %s", limit.Round(time.Millisecond)), NoAnswer: true}
	case errors.As(err, &perr):
		return res, lat, perr
	}
	return res, lat, &providerError{Kind: errTransient, Message: clip(err.Error(), 300)}
}

// complete asks provider i, turning a panic in its client into a transient error: a
// provider's failure never takes the process down.
func (p *Planner) complete(ctx context.Context, i int, req request) (res response, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &providerError{Kind: errTransient, Message: fmt.Sprintf("the %s client panicked: %v", p.models[i].Provider, r)}
		}
	}()
	return p.providers[i].complete(ctx, req)
}

// pick returns the current model if it may be asked, else the next one that may. When none
// may, it returns -1 and how long until the first refusal cools down; when every model is
// broken, an error naming why.
func (p *Planner) pick() (int, time.Duration, error) {
	now := p.now()
	n := len(p.models)
	var soonest time.Time
	for k := range n {
		i := (p.cur + k) % n
		s := p.state[i]
		switch {
		case s.broken != "":
		case !now.Before(s.refusedUntil):
			p.cur = i
			return i, 0, nil
		case soonest.IsZero() || s.refusedUntil.Before(soonest):
			soonest = s.refusedUntil
		}
	}
	if soonest.IsZero() {
		var why []string
		for i, s := range p.state {
			why = append(why, p.models[i].Name()+": "+s.broken)
		}
		return -1, 0, fmt.Errorf("%w: %s", ErrNoModel, strings.Join(why, "; "))
	}
	return -1, soonest.Sub(now), nil
}

// rotate moves past model i to the next one not broken and returns it (i itself when no
// other is left).
func (p *Planner) rotate(i int) int {
	n := len(p.models)
	for k := 1; k < n; k++ {
		j := (i + k) % n
		if p.state[j].broken == "" {
			p.cur = j
			return j
		}
	}
	return i
}

// refuse puts model i aside: for the provider's Retry-After, else for Wait doubled per
// refusal in a row, at most MaxWait.
func (p *Planner) refuse(i int, e *providerError) {
	s := &p.state[i]
	s.refusals++
	s.last = e.Error()
	d := min(p.cfg.Recovery.Wait<<min(s.refusals-1, 16), p.cfg.Recovery.MaxWait)
	if e.RetryAfter > d {
		d = min(e.RetryAfter, p.cfg.Recovery.MaxWait)
	}
	s.refusedUntil = p.now().Add(d)
}

// refusals names each model's latest refusal, for the waiting report.
func (p *Planner) refusals() string {
	var out []string
	for i, s := range p.state {
		if s.broken == "" {
			out = append(out, p.models[i].Name()+": "+s.last)
		}
	}
	return strings.Join(out, "; ")
}

// backoff is the delay before retry n: Backoff doubled per retry, at most MaxBackoff, with
// jitter taking it anywhere between half and all of that.
func (p *Planner) backoff(n int) time.Duration {
	d := min(p.cfg.Recovery.Backoff<<min(n-1, 16), p.cfg.Recovery.MaxBackoff)
	j := rand.Float64
	if p.Jitter != nil {
		j = p.Jitter
	}
	return d/2 + time.Duration(j()*float64(d/2))
}

// spend adds a response's usage to the totals.
func (p *Planner) spend(i int, in, out int64) {
	p.spentTokens += in + out
	p.spentUSD += p.models[i].cost(in, out)
}

// report tells the Wait hook, if any.
func (p *Planner) report(w Wait) {
	if p.Hooks.Wait != nil {
		p.Hooks.Wait(w)
	}
}
