package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/metrics"
	"observatory/backend/suitefile"
	"observatory/backend/taskfile"
)

// suiteJSON is `run SUITE --json`: each task's run, every trial's row, and the estimates
// across the suite by attempt ("task/attempt").
type suiteJSON struct {
	Suite string `json:"suite"`
	// SuiteRun is the id the suite run's runs share (app.NewSuiteRunID).
	SuiteRun  string         `json:"suite_run"`
	Runs      []suiteRunJSON `json:"runs"`
	Estimates metrics.Report `json:"estimates"`
}

type suiteRunJSON struct {
	ID     string          `json:"id"`
	Task   string          `json:"task"`
	Status agent.RunStatus `json:"status"`
	Trials []jsonRow       `json:"trials"`
}

// runSuite runs every task of the suite at path, one run each in the suite's order, and
// prints the estimates across them. --repeat and --limit, when given, win over the suite's
// own; --attempt and --export, which name one task's attempts and one run, are refused.
func runSuite(cmd *cobra.Command, env Env, g *globals, f *runFlags, path string) error {
	if err := f.ci.check(); err != nil {
		return err
	}
	switch {
	case len(f.attempts) > 0:
		return fmt.Errorf("--attempt names one task's attempts; a suite chooses its tasks' attempts in its file (tasks[].attempts)")
	case f.export != "":
		return fmt.Errorf("--export writes one run; a suite makes one run per task: export each with observatory export RUN")
	case f.labTaskFile:
		return fmt.Errorf("--task-file runs a lab's own task file; give it or the suite %s, not both", path)
	}
	trust, err := f.trust.trust(g)
	if err != nil {
		return err
	}
	s, err := suitefile.Load(path, taskfile.Options{Trust: trust, Confirm: f.confirm, Labs: labs.ForTaskFiles})
	if err != nil {
		return err
	}
	repeat := s.Repeat
	if cmd.Flags().Changed("repeat") {
		repeat = f.repeat
	}
	attemptBudgets, runBudgets, err := f.overrides.budgets()
	if err != nil {
		return err
	}
	if attemptBudgets == nil {
		attemptBudgets = s.AttemptBudgets
	}
	runBudgets = s.RunBudgets.Merge(runBudgets)
	st, dataDir, err := openStore(g)
	if err != nil {
		return err
	}
	defer st.Close()
	suiteRun := app.NewSuiteRunID(s.Name, time.Now())
	fmt.Fprintf(env.Stderr, "suite %s: %d tasks, %d trials of each attempt\n", safe(s.Name), len(s.Tasks), repeat)
	var runs []agent.Run
	for _, t := range s.Tasks {
		run, err := execute(cmd, env, g, f, st, dataDir, taskRun{src: app.TaskFileSource(t.Task), attempts: t.Attempts, repeat: repeat,
			attemptBudgets: attemptBudgets, runBudgets: runBudgets, suiteRun: suiteRun})
		if err != nil {
			return fmt.Errorf("suite %s: %s: %w", s.Name, t.Path, err)
		}
		runs = append(runs, run)
		if run.Status == agent.RunCancelled {
			break // the kill switch stops the suite, not only this task
		}
	}
	r := metrics.Compute(runs, metrics.ByAttempt)
	if f.json {
		out := suiteJSON{Suite: s.Name, SuiteRun: suiteRun, Estimates: r}
		for _, run := range runs {
			out.Runs = append(out.Runs, suiteRunJSON{ID: run.ID, Task: run.Task, Status: run.Status, Trials: jsonRows(run.Attempts)})
		}
		if err := writeJSON(env.Stdout, out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(env.Stdout, "suite %s: %d runs (suite run %s)\n", safe(s.Name), len(runs), safe(suiteRun))
		for _, run := range runs {
			fmt.Fprintf(env.Stdout, "  %s  %s\n", run.ID, safe(run.Task))
		}
		fmt.Fprintln(env.Stdout)
		if err := printEstimates(env.Stdout, r); err != nil {
			return err
		}
	}
	if last := runs[len(runs)-1]; last.Status == agent.RunCancelled {
		return errors.New("the suite was cancelled at run " + last.ID)
	}
	// Each trial's media lie below its own run's folder.
	runOf := map[string]string{}
	for _, run := range runs {
		for _, a := range run.Attempts {
			runOf[a.Task.Name+"\x00"+a.Slug] = run.ID
		}
	}
	media := func(a agent.Attempt) []string { return mediaOf(dataDir, runOf[a.Task.Name+"\x00"+a.Slug])(a) }
	if err := f.ci.write(env, f.ci.reportOf(runs, nil, media), f.json, nil); err != nil {
		return errors.Join(err, f.ci.gate(runs))
	}
	return f.ci.gate(runs)
}
