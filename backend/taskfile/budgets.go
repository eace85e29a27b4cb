package taskfile

import "observatory/backend/agent"

// BudgetsSection bounds what each attempt, and the whole run, may spend.
type BudgetsSection struct {
	// Attempt bounds every attempt on its own.
	Attempt *Budgets `json:"attempt,omitempty"`
	// Run bounds the run's attempts together; exhausting one stops the attempts left.
	Run *Budgets `json:"run,omitempty"`
}

// Budgets are the task file's budgets; an absent field (or 0) is no bound.
type Budgets struct {
	Steps       int     `json:"steps,omitempty"`
	WallClockMS int     `json:"wall_clock_ms,omitempty"`
	Retries     int     `json:"retries,omitempty"`
	Navigations int     `json:"navigations,omitempty"`
	Uploads     int     `json:"uploads,omitempty"`
	Downloads   int     `json:"downloads,omitempty"`
	Commits     int     `json:"commits,omitempty"`
	Tokens      int     `json:"tokens,omitempty"`
	MoneyUSD    float64 `json:"money_usd,omitempty"`
}

// Domain maps b to the agent's budgets, refusing a negative one at path.
func (b *Budgets) Domain(path string) (agent.Budgets, error) {
	if b == nil {
		return agent.Budgets{}, nil
	}
	out := agent.Budgets{Steps: b.Steps, WallClockMS: b.WallClockMS, Retries: b.Retries, Navigations: b.Navigations,
		Uploads: b.Uploads, Downloads: b.Downloads, Commits: b.Commits, Tokens: int64(b.Tokens), MoneyUSD: b.MoneyUSD}
	if err := out.Validate(); err != nil {
		return out, errAt(path, "%v", err)
	}
	return out, nil
}

// budgets reads the budgets section: the attempts' budgets go into every attempt's config
// (the attempts are built after it), the run's are kept for RunBudgets.
func (b *builder) budgets(doc *Document) error {
	if doc.Budgets == nil {
		return nil
	}
	attempt, err := doc.Budgets.Attempt.Domain("budgets.attempt")
	if err != nil {
		return err
	}
	if b.s.runBudgets, err = doc.Budgets.Run.Domain("budgets.run"); err != nil {
		return err
	}
	if !attempt.IsZero() {
		b.s.attemptBudgets = &attempt
	}
	return nil
}

// RunBudgets are the budgets the task file sets on a whole run; zero bounds nothing.
func (s *suite) RunBudgets() agent.Budgets { return s.runBudgets }

var _ agent.RunBounded = (*suite)(nil)
