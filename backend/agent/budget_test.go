package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// turnPlanner proposes a plan's actions in order, each with one model turn of the given
// usage, as a model planner records them.
type turnPlanner struct {
	plan agent.Plan
	turn agent.ModelTurn
}

func (p *turnPlanner) Next(_ context.Context, _ agent.Sample, history []agent.Step) (agent.Proposal, error) {
	if len(history) >= len(p.plan) {
		return agent.Proposal{End: true}, nil
	}
	t := p.turn
	t.Step = len(history)
	return agent.Proposal{Action: p.plan[len(history)], Turns: []agent.ModelTurn{t}}, nil
}

// TestEachBudgetEndsTheAttemptExhausted runs one attempt per budget, bounded just below what
// it needs: each ends exhausted, its reason and error naming the budget, and the step that
// would have overspent it does not run.
func TestEachBudgetEndsTheAttemptExhausted(t *testing.T) {
	navigatePlan := agent.Plan{
		{ID: "go", Description: "Open the list", Kind: agent.ActNavigate, Value: "http://lab/list"},
		{ID: "again", Description: "Open the list again", Kind: agent.ActNavigate, Value: "http://lab/list?2"},
		{ID: "verify", Description: "Verify", Kind: agent.ActVerify},
	}
	uploadPlan := agent.Plan{
		{ID: "up", Description: "Upload the report", Kind: agent.ActUpload, Target: agent.Target{Label: "File"}, Value: "a.txt"},
		{ID: "up2", Description: "Upload the appendix", Kind: agent.ActUpload, Target: agent.Target{Label: "File"}, Value: "b.txt"},
	}
	downloadPlan := agent.Plan{
		{ID: "down", Description: "Download the invoice", Kind: agent.ActDownload, Target: agent.Target{Role: "link", Name: "Invoice"}},
		{ID: "down2", Description: "Download the receipt", Kind: agent.ActDownload, Target: agent.Target{Role: "link", Name: "Receipt"}},
	}
	page := func() *fakePage {
		c := controls()
		c["label \"File\""], c["link[Invoice]"], c["link[Receipt]"] = 1, 1, 1
		return &fakePage{controls: c}
	}
	tests := []struct {
		budget  string
		budgets agent.Budgets
		planner agent.Planner
		ran     int // actions carried out on the page
	}{
		{agent.BudgetSteps, agent.Budgets{Steps: 2}, planner.Scripted(plan()), 2},
		{agent.BudgetCommits, agent.Budgets{Commits: 1}, planner.Scripted(plan()), 2}, // Reserve slot commits; Save is the second
		{agent.BudgetNavigations, agent.Budgets{Navigations: 1}, planner.Scripted(navigatePlan), 1},
		{agent.BudgetUploads, agent.Budgets{Uploads: 1}, planner.Scripted(uploadPlan), 1},
		{agent.BudgetDownloads, agent.Budgets{Downloads: 1}, planner.Scripted(downloadPlan), 1},
		{agent.BudgetTokens, agent.Budgets{Tokens: 200}, &turnPlanner{plan: plan(), turn: agent.ModelTurn{InTokens: 100, OutTokens: 20}}, 2},
		{agent.BudgetMoney, agent.Budgets{MoneyUSD: 0.01}, &turnPlanner{plan: plan(), turn: agent.ModelTurn{CostUSD: 0.01}}, 1},
		{agent.BudgetRetries, agent.Budgets{Retries: 1}, &turnPlanner{plan: plan(), turn: agent.ModelTurn{Retries: 1}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.budget, func(t *testing.T) {
			p := page()
			cfg := agent.DefaultConfig()
			cfg.Budgets = &tt.budgets
			clock := &fakeClock{t: time.Unix(0, 0)}
			// Uploads wait for the user's approval by contract: this user approves them, and
			// the approval's minute-long limit never runs out before the answer.
			sleep := func(ctx context.Context, d time.Duration) error {
				if d >= time.Minute {
					return never(ctx, d)
				}
				return clock.sleep(ctx, d)
			}
			x := &agent.Executor{Policy: harness.Policy{}, Approver: always(agent.AnswerApprove), Now: clock.now, Sleep: sleep}
			out := x.Run(context.Background(), p, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: tt.planner, Config: cfg}, agent.Hooks{})
			if out.Terminal != agent.Exhausted {
				t.Fatalf("terminal %s (%s), want exhausted", out.Terminal, out.Reason)
			}
			e, ok := agent.ExhaustedBudget(out.Err)
			if !ok || e.Budget != tt.budget || e.Scope != agent.ScopeAttempt {
				t.Fatalf("error %v, want the attempt's %s budget", out.Err, tt.budget)
			}
			if want := "the attempt's " + tt.budget + " budget is spent"; !strings.Contains(out.Reason, want) {
				t.Errorf("reason %q does not say %q", out.Reason, want)
			}
			// The harness's re-check hovers over a commit's control before it acts; that
			// look is not one of the plan's actions.
			var ran []string
			for _, a := range p.acted {
				if !strings.HasPrefix(a, "hover ") {
					ran = append(ran, a)
				}
			}
			if len(ran) != tt.ran {
				t.Errorf("acted %v, want %d actions before the budget stopped it", p.acted, tt.ran)
			}
		})
	}
}

// TestWallClockBudgetEndsTheWait bounds an attempt at 300 ms of real time while its verify
// would wait a minute: the attempt ends exhausted naming the wall-clock budget, promptly.
func TestWallClockBudgetEndsTheWait(t *testing.T) {
	cfg := agent.DefaultConfig()
	cfg.DeadlineMS = 60000
	cfg.Budgets = &agent.Budgets{WallClockMS: 300}
	x := &agent.Executor{Policy: harness.Policy{}}
	start := time.Now()
	out := x.Run(context.Background(), &fakePage{controls: controls()}, agent.Job{Env: &fakeLab{}, Planner: planner.Scripted(plan()), Config: cfg}, agent.Hooks{})
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("the attempt took %s with a 300 ms budget", took)
	}
	if out.Terminal != agent.Exhausted || !strings.Contains(out.Reason, "wall_clock_ms budget is spent: 300 ms") {
		t.Fatalf("terminal %s (%s), want exhausted naming the wall-clock budget", out.Terminal, out.Reason)
	}
}

// TestRunBudgetIsShared runs two attempts against one run budget of three commits: the first
// spends two, the second is stopped at its second commit, naming the run's budget.
func TestRunBudgetIsShared(t *testing.T) {
	pot := agent.NewRunBudget(agent.Budgets{Commits: 3})
	run := func() agent.Outcome {
		clock := &fakeClock{t: time.Unix(0, 0)}
		x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
		return x.Run(context.Background(), &fakePage{controls: controls()}, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig(), Run: pot}, agent.Hooks{})
	}
	if out := run(); out.Terminal != agent.Completed {
		t.Fatalf("first attempt %s (%s), want completed within the run's budget", out.Terminal, out.Reason)
	}
	out := run()
	e, ok := agent.ExhaustedBudget(out.Err)
	if out.Terminal != agent.Exhausted || !ok || e.Scope != agent.ScopeRun || e.Budget != agent.BudgetCommits {
		t.Fatalf("second attempt %s (%s), want exhausted by the run's commits budget", out.Terminal, out.Reason)
	}
	if got := pot.Spent().Commits; got != 3 {
		t.Errorf("the run spent %d commits, want 3", got)
	}
	if pot.Exhausted() == nil {
		t.Error("the run budget does not report its exhaustion")
	}
}

func TestBudgetsSetAndValidate(t *testing.T) {
	var b agent.Budgets
	for _, kv := range [][2]string{{"commits", "2"}, {"tokens", "5000"}, {"money_usd", "0.5"}, {"wall_clock_ms", "30000"}} {
		if err := b.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if b != (agent.Budgets{Commits: 2, Tokens: 5000, MoneyUSD: 0.5, WallClockMS: 30000}) {
		t.Errorf("set %+v", b)
	}
	for _, kv := range [][2]string{{"commit", "1"}, {"steps", "-1"}, {"money_usd", "lots"}} {
		if err := b.Set(kv[0], kv[1]); err == nil {
			t.Errorf("Set(%s, %s) accepted", kv[0], kv[1])
		}
	}
	if err := (agent.Budgets{Uploads: -1}).Validate(); err == nil || !strings.Contains(err.Error(), "uploads") {
		t.Errorf("validate a negative upload budget: %v", err)
	}
}

// payingReviewer clears every action, each answer costing 80 tokens in and 20 out.
type payingReviewer struct{ asked int }

func (r *payingReviewer) Review(context.Context, harness.ReviewRequest) (agent.Review, error) {
	r.asked++
	return agent.Review{Reviewer: agent.ReviewerModel, Verdict: agent.ReviewClear, Reason: "fine", InTokens: 80, OutTokens: 20}, nil
}

// TestAReviewsTokensCountAgainstTheBudget: a model reviewer's usage is spent from the
// attempt's token budget like the planner's turns. The plan's two commits are reviewed for
// 100 tokens each (each re-check on approach keeps its review, unpaid); the second review
// spends 200 of a 150-token budget, so, as after a planner's turn, its action has run and the
// next step is not planned: the attempt ends exhausted.
func TestAReviewsTokensCountAgainstTheBudget(t *testing.T) {
	p := &fakePage{controls: controls()}
	cfg := agent.DefaultConfig()
	cfg.Budgets = &agent.Budgets{Tokens: 150}
	cfg.Safeguards = &agent.Safeguards{Review: &agent.ReviewSpec{Policy: "book only what was asked", Reviewer: agent.ReviewerModel}}
	reviewer := &payingReviewer{}
	clock := &fakeClock{t: time.Unix(0, 0)}
	x := &agent.Executor{Policy: harness.Policy{Model: reviewer}, Now: clock.now, Sleep: clock.sleep}
	out := x.Run(context.Background(), p, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: planner.Scripted(plan()), Config: cfg}, agent.Hooks{})
	e, ok := agent.ExhaustedBudget(out.Err)
	if out.Terminal != agent.Exhausted || !ok || e.Budget != agent.BudgetTokens || !strings.Contains(out.Reason, "tokens budget is spent: 200 of 150") {
		t.Fatalf("terminal %s (%s, %v), want exhausted by the reviews' 200 tokens", out.Terminal, out.Reason, out.Err)
	}
	if reviewer.asked != 2 {
		t.Errorf("the reviewer was asked %d times, want 2: once per commit, its review kept on approach", reviewer.asked)
	}
	if n := len(out.Steps); n != len(plan())-1 {
		t.Fatalf("%d steps ran, want every one before the verify", n)
	}
	for _, s := range []agent.Step{out.Steps[0], out.Steps[2]} {
		if rv := s.Decision.Review; rv == nil || !rv.Kept || rv.InTokens != 80 || rv.OutTokens != 20 {
			t.Errorf("step %q records the review %+v, want the one kept on approach, with its cost", s.Action.Description, rv)
		}
	}
}
