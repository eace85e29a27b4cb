package model

import (
	"context"
	"errors"
	"fmt"
	"time"

	"observatory/backend/agent"
)

// ErrExhausted is wrapped by every error that ends planning because one of its limits was
// reached: the time limit, the token budget or the money budget. The runner maps it to the
// exhausted terminal state, with the error's text as the reason.
var ErrExhausted = agent.ErrExhausted

// The limits, each wrapping ErrExhausted.
var (
	ErrTimeLimit   = fmt.Errorf("time limit: %w", ErrExhausted)
	ErrTokenBudget = fmt.Errorf("token budget: %w", ErrExhausted)
	ErrMoneyBudget = fmt.Errorf("money budget: %w", ErrExhausted)
)

// ErrNoModel means every configured model failed for good (a bad key, an unknown model):
// waiting would not help.
var ErrNoModel = errors.New("no configured model can answer")

// left is the time left before the time limit.
func (p *Planner) left() time.Duration {
	return p.start.Add(p.cfg.timeLimit()).Sub(p.now())
}

// limits says whether planning may go on: the context is live, time is left and neither
// budget is spent.
func (p *Planner) limits(ctx context.Context) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case p.left() <= 0:
		return fmt.Errorf("the %s time limit is up: %w", p.cfg.timeLimit(), ErrTimeLimit)
	case p.cfg.TokenBudget > 0 && p.spentTokens >= p.cfg.TokenBudget:
		return fmt.Errorf("%d of %d tokens spent: %w", p.spentTokens, p.cfg.TokenBudget, ErrTokenBudget)
	case p.cfg.MoneyBudget > 0 && p.spentUSD >= p.cfg.MoneyBudget:
		return fmt.Errorf("$%.4f of $%.4f spent: %w", p.spentUSD, p.cfg.MoneyBudget, ErrMoneyBudget)
	}
	return nil
}

// now and sleep use the injected clock when there is one.
func (p *Planner) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Planner) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	return sleepCtx(ctx, d)
}
