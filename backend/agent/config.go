package agent

import (
	"fmt"
	"time"
)

// WaitMode is how the executor waits for a submitted action to take effect.
type WaitMode string

// Wait modes.
const (
	// WaitFixed sleeps a fixed delay, then checks the gate once.
	WaitFixed WaitMode = "fixed"
	// WaitCondition polls the gate until it holds, the app settles otherwise, or a deadline passes.
	WaitCondition WaitMode = "condition"
)

// SelectorMode is how targets are located.
type SelectorMode string

// Selector modes.
const (
	// SelectExact matches the accessible name exactly and nothing else.
	SelectExact SelectorMode = "exact"
	// SelectAlias falls back to the control's one declared alias when the name matches nothing.
	SelectAlias SelectorMode = "alias"
)

// Config holds the numbers and policies one attempt runs with. Durations are milliseconds so
// that flags, settings and run files all speak the same unit.
type Config struct {
	Wait        WaitMode     `json:"wait"`
	FixedWaitMS int          `json:"fixed_wait_ms"`
	PollMS      int          `json:"poll_ms"`
	DeadlineMS  int          `json:"deadline_ms"`
	Selectors   SelectorMode `json:"selectors"`
	// Budget is the most actions the attempt may spend.
	Budget int `json:"budget"`
	// Retries is how many times a commit whose outcome the app left ambiguous may be tried
	// again: blindly without the harness; with it, only once the app's store says the first
	// did not land.
	Retries int `json:"retries,omitempty"`
	// Safeguards are the review and approval irreversible actions get; nil for none.
	Safeguards *Safeguards `json:"safeguards,omitempty"`
	// Budgets bound what the attempt may spend (see Budgets); nil for none.
	Budgets *Budgets `json:"budgets,omitempty"`
}

// DefaultConfig is the seed's configuration: condition wait polling every 20 ms up to 1500 ms,
// a 200 ms fixed wait when that policy is chosen, exact selectors and a budget of 8 actions.
func DefaultConfig() Config {
	return Config{Wait: WaitCondition, FixedWaitMS: 200, PollMS: 20, DeadlineMS: 1500,
		Selectors: SelectExact, Budget: 8}
}

// Validate says what is wrong with c, naming the field, or returns nil.
func (c Config) Validate() error {
	switch {
	case c.Wait != WaitFixed && c.Wait != WaitCondition:
		return fmt.Errorf("wait policy %q: want %q or %q", c.Wait, WaitFixed, WaitCondition)
	case c.Selectors != SelectExact && c.Selectors != SelectAlias:
		return fmt.Errorf("selector policy %q: want %q or %q", c.Selectors, SelectExact, SelectAlias)
	case c.FixedWaitMS < 0 || c.FixedWaitMS > 60000:
		return fmt.Errorf("fixed wait %d ms: want 0 to 60000", c.FixedWaitMS)
	case c.PollMS < 1 || c.PollMS > 10000:
		return fmt.Errorf("poll %d ms: want 1 to 10000", c.PollMS)
	case c.DeadlineMS < 1 || c.DeadlineMS > 120000:
		return fmt.Errorf("deadline %d ms: want 1 to 120000", c.DeadlineMS)
	case c.Budget < 0 || c.Budget > 1000:
		return fmt.Errorf("budget %d actions: want 0 to 1000", c.Budget)
	case c.Retries < 0 || c.Retries > 3:
		return fmt.Errorf("retries %d: want 0 to 3", c.Retries)
	}
	if c.Budgets != nil {
		if err := c.Budgets.Validate(); err != nil {
			return err
		}
	}
	return c.Safeguards.Validate()
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// FixedWait, Poll and Deadline return the configured numbers as durations.
func (c Config) FixedWait() time.Duration { return ms(c.FixedWaitMS) }

// Poll is the condition wait's polling interval.
func (c Config) Poll() time.Duration { return ms(c.PollMS) }

// Deadline is how long the condition wait may poll.
func (c Config) Deadline() time.Duration { return ms(c.DeadlineMS) }

// ConfigOverride changes some of a Config's fields; a nil field leaves the attempt's own
// value. The command line's flags and the UI's settings both arrive as one.
type ConfigOverride struct {
	Wait        *WaitMode     `json:"wait,omitempty"`
	FixedWaitMS *int          `json:"fixed_wait_ms,omitempty"`
	PollMS      *int          `json:"poll_ms,omitempty"`
	DeadlineMS  *int          `json:"deadline_ms,omitempty"`
	Selectors   *SelectorMode `json:"selectors,omitempty"`
	Budget      *int          `json:"budget,omitempty"`
	// Budgets' bounded fields replace the attempt's own.
	Budgets *Budgets `json:"budgets,omitempty"`
}

// Apply returns c with o's set fields in place of its own.
func (o ConfigOverride) Apply(c Config) Config {
	set := func(dst *int, src *int) {
		if src != nil {
			*dst = *src
		}
	}
	if o.Wait != nil {
		c.Wait = *o.Wait
	}
	if o.Selectors != nil {
		c.Selectors = *o.Selectors
	}
	set(&c.FixedWaitMS, o.FixedWaitMS)
	set(&c.PollMS, o.PollMS)
	set(&c.DeadlineMS, o.DeadlineMS)
	set(&c.Budget, o.Budget)
	if o.Budgets != nil && !o.Budgets.IsZero() {
		var own Budgets
		if c.Budgets != nil {
			own = *c.Budgets
		}
		merged := own.Merge(*o.Budgets)
		c.Budgets = &merged
	}
	return c
}
