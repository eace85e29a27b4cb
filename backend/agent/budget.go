package agent

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
)

// Budgets bound what an attempt, or a whole run, may spend; a zero field is no bound. They
// are counted by the executor from what it actually runs, so they hold for any planner and
// any policy. Exhausting one ends the attempt exhausted, naming the budget; a run's budgets
// are shared by its attempts, and exhausting one also stops the run's remaining attempts.
type Budgets struct {
	// Steps is the most steps run, every kind counted (verify too); the policy's action
	// budget (Config.Budget) is checked as well.
	Steps int `json:"steps,omitempty"`
	// WallClockMS is the most time, from the start, before the attempt (or run) is stopped.
	WallClockMS int `json:"wall_clock_ms,omitempty"`
	// Retries is the most retries of any kind: commits sent again after reconciliation or
	// blindly, and model requests retried after a timeout or a server error.
	Retries int `json:"retries,omitempty"`
	// Navigations counts actions whose contract is navigate: a URL, a link, a tab.
	Navigations int `json:"navigations,omitempty"`
	// Uploads and Downloads count actions of the upload and download kinds.
	Uploads   int `json:"uploads,omitempty"`
	Downloads int `json:"downloads,omitempty"`
	// Commits counts external writes: commits and destructs that were admitted to run.
	Commits int `json:"commits,omitempty"`
	// Tokens and MoneyUSD bound a model planner's usage (input and output tokens) and cost.
	Tokens   int64   `json:"tokens,omitempty"`
	MoneyUSD float64 `json:"money_usd,omitempty"`
}

// The budgets' names, as task files, flags, reasons and the UI spell them.
const (
	BudgetSteps       = "steps"
	BudgetWallClock   = "wall_clock_ms"
	BudgetRetries     = "retries"
	BudgetNavigations = "navigations"
	BudgetUploads     = "uploads"
	BudgetDownloads   = "downloads"
	BudgetCommits     = "commits"
	BudgetTokens      = "tokens"
	BudgetMoney       = "money_usd"
)

// BudgetNames lists every budget's name, in the order documentation shows them.
var BudgetNames = []string{BudgetSteps, BudgetWallClock, BudgetRetries, BudgetNavigations, BudgetUploads,
	BudgetDownloads, BudgetCommits, BudgetTokens, BudgetMoney}

// IsZero reports whether b bounds nothing.
func (b Budgets) IsZero() bool { return b == Budgets{} }

// Validate says which budget is negative, or returns nil.
func (b Budgets) Validate() error {
	for _, e := range b.entries(Spend{}) {
		if e.limit < 0 {
			return fmt.Errorf("budget %s is %s: want 0 (no bound) or more", e.name, e.text(e.limit))
		}
	}
	return nil
}

// Set sets the budget named name from its text ("commits", "1"), as a flag or a setting
// gives it.
func (b *Budgets) Set(name, value string) error {
	if name == BudgetMoney {
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || v < 0 {
			return fmt.Errorf("budget %s=%q: want an amount in US dollars, 0 or more", name, value)
		}
		b.MoneyUSD = v
		return nil
	}
	dst := map[string]*int{BudgetSteps: &b.Steps, BudgetWallClock: &b.WallClockMS, BudgetRetries: &b.Retries,
		BudgetNavigations: &b.Navigations, BudgetUploads: &b.Uploads, BudgetDownloads: &b.Downloads, BudgetCommits: &b.Commits}
	v, err := strconv.ParseInt(value, 10, 64)
	if err != nil || v < 0 {
		return fmt.Errorf("budget %s=%q: want a whole number, 0 or more", name, value)
	}
	if name == BudgetTokens {
		b.Tokens = v
		return nil
	}
	p, ok := dst[name]
	if !ok {
		return fmt.Errorf("no budget is named %q; the budgets are %v", name, BudgetNames)
	}
	*p = int(v)
	return nil
}

// Merge returns b with o's bounded fields in place of its own.
func (b Budgets) Merge(o Budgets) Budgets {
	pick := func(dst *int, src int) {
		if src != 0 {
			*dst = src
		}
	}
	pick(&b.Steps, o.Steps)
	pick(&b.WallClockMS, o.WallClockMS)
	pick(&b.Retries, o.Retries)
	pick(&b.Navigations, o.Navigations)
	pick(&b.Uploads, o.Uploads)
	pick(&b.Downloads, o.Downloads)
	pick(&b.Commits, o.Commits)
	if o.Tokens != 0 {
		b.Tokens = o.Tokens
	}
	if o.MoneyUSD != 0 {
		b.MoneyUSD = o.MoneyUSD
	}
	return b
}

// Spend is what an attempt or a run has used of its budgets.
type Spend struct {
	Steps       int     `json:"steps"`
	Retries     int     `json:"retries"`
	Navigations int     `json:"navigations"`
	Uploads     int     `json:"uploads"`
	Downloads   int     `json:"downloads"`
	Commits     int     `json:"commits"`
	Tokens      int64   `json:"tokens"`
	MoneyUSD    float64 `json:"money_usd"`
}

// plus is s with d added.
func (s Spend) plus(d Spend) Spend {
	return Spend{Steps: s.Steps + d.Steps, Retries: s.Retries + d.Retries, Navigations: s.Navigations + d.Navigations,
		Uploads: s.Uploads + d.Uploads, Downloads: s.Downloads + d.Downloads, Commits: s.Commits + d.Commits,
		Tokens: s.Tokens + d.Tokens, MoneyUSD: s.MoneyUSD + d.MoneyUSD}
}

// StepSpend is what running a step of action a under decision d spends.
func StepSpend(a Action, d Decision) Spend {
	s := Spend{Steps: 1}
	if d.Contract == ContractNavigate {
		s.Navigations = 1
	}
	switch a.Kind {
	case ActUpload:
		s.Uploads = 1
	case ActDownload:
		s.Downloads = 1
	}
	if d.Class.Commits() {
		s.Commits = 1
	}
	return s
}

// TurnSpend is what a model planner's turns spent: tokens, money and retried requests.
func TurnSpend(turns []ModelTurn) Spend {
	var s Spend
	for _, t := range turns {
		s.Tokens += t.InTokens + t.OutTokens
		s.MoneyUSD += t.CostUSD
		s.Retries += t.Retries
	}
	return s
}

// ReviewSpend is what the review behind decision d cost: its tokens and money, nothing for a
// review kept from an earlier decision.
func ReviewSpend(d Decision) Spend {
	if d.Review == nil || d.Review.Kept {
		return Spend{}
	}
	return Spend{Tokens: d.Review.InTokens + d.Review.OutTokens, MoneyUSD: d.Review.CostUSD}
}

// Scope says whose budget ran out.
type Scope string

// Scopes.
const (
	ScopeAttempt Scope = "attempt"
	ScopeRun     Scope = "run"
)

// ExhaustedError names the budget that ran out, whose it was, and what was spent of it. It
// wraps ErrExhausted.
type ExhaustedError struct {
	Scope  Scope
	Budget string
	// Spent and Limit are the numbers as text, in the budget's unit.
	Spent, Limit string
}

func (e *ExhaustedError) Error() string {
	return fmt.Sprintf("the %s's %s budget is spent: %s of %s", e.Scope, e.Budget, e.Spent, e.Limit)
}

// Unwrap makes errors.Is(err, ErrExhausted) hold.
func (e *ExhaustedError) Unwrap() error { return ErrExhausted }

// ExhaustedBudget is the budget err names, when it is an ExhaustedError.
func ExhaustedBudget(err error) (*ExhaustedError, bool) {
	var e *ExhaustedError
	ok := errors.As(err, &e)
	return e, ok
}

// entry is one budget: its name, its limit and what was spent of it. A counted budget is
// refused before it is overspent; a consumed one (tokens, money) is stopped once spent.
type entry struct {
	name              string
	limit, spent      float64
	counted, consumed bool
	money             bool
}

func (e entry) text(v float64) string {
	if e.money {
		return fmt.Sprintf("$%.4f", v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func (e entry) exhausted(scope Scope) *ExhaustedError {
	return &ExhaustedError{Scope: scope, Budget: e.name, Spent: e.text(e.spent), Limit: e.text(e.limit)}
}

// entries lists b's budgets against s.
func (b Budgets) entries(s Spend) []entry {
	count := func(name string, limit, spent int) entry {
		return entry{name: name, limit: float64(limit), spent: float64(spent), counted: true}
	}
	return []entry{
		count(BudgetSteps, b.Steps, s.Steps),
		{name: BudgetWallClock, limit: float64(b.WallClockMS)},
		count(BudgetRetries, b.Retries, s.Retries),
		count(BudgetNavigations, b.Navigations, s.Navigations),
		count(BudgetUploads, b.Uploads, s.Uploads),
		count(BudgetDownloads, b.Downloads, s.Downloads),
		count(BudgetCommits, b.Commits, s.Commits),
		{name: BudgetTokens, limit: float64(b.Tokens), spent: float64(s.Tokens), consumed: true},
		{name: BudgetMoney, limit: b.MoneyUSD, spent: s.MoneyUSD, consumed: true, money: true},
	}
}

// Admit says whether spending d on top of spent stays within b's counted budgets: the first
// that d would take past its limit is exhausted. Tokens and money are spent before anyone
// can refuse them (a model's turn has happened), so Admit never refuses them; MayPlan does,
// before planning asks again.
func (b Budgets) Admit(scope Scope, spent, d Spend) *ExhaustedError {
	before, after := b.entries(spent), b.entries(spent.plus(d))
	for i, e := range before {
		if e.limit <= 0 || !e.counted {
			continue
		}
		if after[i].spent > e.limit && after[i].spent > e.spent {
			return e.exhausted(scope)
		}
	}
	return nil
}

// MayPlan says whether a planner may be asked again after spent: nil while tokens and money
// are left, else the one spent.
func (b Budgets) MayPlan(scope Scope, spent Spend) *ExhaustedError {
	for _, e := range b.entries(spent) {
		if e.limit > 0 && e.consumed && e.spent >= e.limit {
			return e.exhausted(scope)
		}
	}
	return nil
}

// WallClockExhausted is the error that ends an attempt or run when its wall-clock budget
// is up.
func (b Budgets) WallClockExhausted(scope Scope) *ExhaustedError {
	v := strconv.Itoa(b.WallClockMS) + " ms"
	return &ExhaustedError{Scope: scope, Budget: BudgetWallClock, Spent: v, Limit: v}
}

// RunBounded is a Suite that sets budgets on a whole run (a task file's budgets.run).
type RunBounded interface {
	RunBudgets() Budgets
}

// RunBudget is a run's budgets and what its attempts have spent of them so far; attempts
// running side by side share one. The zero value bounds nothing.
type RunBudget struct {
	Limits Budgets
	mu     sync.Mutex
	spent  Spend
	out    *ExhaustedError
}

// NewRunBudget returns a run budget bounded by limits.
func NewRunBudget(limits Budgets) *RunBudget { return &RunBudget{Limits: limits} }

// spend adds d to what the run has spent, unless that would exhaust one of its budgets: then
// it spends nothing, remembers the first exhaustion and returns it. A nil RunBudget bounds
// nothing.
func (p *RunBudget) spend(d Spend) *ExhaustedError {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.out != nil {
		return p.out
	}
	if e := p.Limits.Admit(ScopeRun, p.spent, d); e != nil {
		p.out = e
		return e
	}
	p.spent = p.spent.plus(d)
	return nil
}

// mayPlan says whether the run's tokens and money allow planning again; once they do not,
// that is the run's exhaustion.
func (p *RunBudget) mayPlan() *ExhaustedError {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.out == nil {
		p.out = p.Limits.MayPlan(ScopeRun, p.spent)
	}
	return p.out
}

// MayPlan says whether the run's tokens and money allow asking a model again (a judge
// after an attempt); nil when they do.
func (p *RunBudget) MayPlan() *ExhaustedError { return p.mayPlan() }

// Charge adds what was already paid for (a judge's reply) to what the run has spent, even
// past a limit; a limit it passes is then the run's exhaustion. A nil RunBudget bounds nothing.
func (p *RunBudget) Charge(d Spend) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.Limits.Admit(ScopeRun, p.spent, d); e != nil && p.out == nil {
		p.out = e
	}
	p.spent = p.spent.plus(d)
}

// Spent is what the run's attempts have spent so far.
func (p *RunBudget) Spent() Spend {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.spent
}

// Exhausted is the run budget that ran out, nil while none has.
func (p *RunBudget) Exhausted() *ExhaustedError {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out
}
