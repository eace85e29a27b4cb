package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/runner"
)

// overrideFlags are the numbers and policies that override every attempt's own.
type overrideFlags struct {
	wait, selectors                            string
	latency, fixedWait, poll, deadline, budget int
}

func (o *overrideFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.wait, "wait", "", "wait policy for every attempt: fixed or condition")
	fs.StringVar(&o.selectors, "selectors", "", "selector policy for every attempt: exact or alias")
	fs.IntVar(&o.latency, "latency", 0, "save latency of the lab in ms, for every attempt")
	fs.IntVar(&o.fixedWait, "fixed-wait", 0, "fixed wait in ms (with --wait fixed)")
	fs.IntVar(&o.poll, "poll", 0, "condition wait polling interval in ms")
	fs.IntVar(&o.deadline, "deadline", 0, "condition wait deadline in ms")
	fs.IntVar(&o.budget, "budget", 0, "action budget: the most actions an attempt may spend")
}

// override turns the flags that were given into a ConfigOverride; flags left alone keep each
// attempt's own value.
func (o *overrideFlags) override(fs *pflag.FlagSet) agent.ConfigOverride {
	var ov agent.ConfigOverride
	ints := map[string]struct {
		dst **int
		v   int
	}{
		"latency": {&ov.LatencyMS, o.latency}, "fixed-wait": {&ov.FixedWaitMS, o.fixedWait},
		"poll": {&ov.PollMS, o.poll}, "deadline": {&ov.DeadlineMS, o.deadline}, "budget": {&ov.Budget, o.budget},
	}
	for name, f := range ints {
		if fs.Changed(name) {
			v := f.v
			*f.dst = &v
		}
	}
	if fs.Changed("wait") {
		w := agent.WaitMode(o.wait)
		ov.Wait = &w
	}
	if fs.Changed("selectors") {
		s := agent.SelectorMode(o.selectors)
		ov.Selectors = &s
	}
	return ov
}

type runFlags struct {
	lab, export, browserPath string
	attempts                 []string
	headed, json             bool
	noVideo, noScreenshots   bool
	trace                    bool
	overrides                overrideFlags
}

func newRunCmd(env Env, g *globals) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run a lab's attempts in real Chromium and print the verdicts",
		Long: `Runs every attempt of a lab (or those named with --attempt) headless in real Chromium,
records each step in the run history, and prints the attempts table with wrong verdicts
marked. Progress goes to standard error; with --json standard output holds only the JSON.`,
		Example: `  observatory run --lab booking
  observatory run --lab booking --attempt fixed-wait-slow-save --latency 100
  observatory run --lab booking --json --export run.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLab(cmd, env, g, f) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.lab, "lab", "booking", "the lab to run, one of "+fmt.Sprint(labs.Names()))
	fs.StringArrayVar(&f.attempts, "attempt", nil, "run only this attempt (repeatable); default all")
	fs.BoolVar(&f.headed, "headed", false, "show the browser window")
	fs.BoolVar(&f.json, "json", false, "print a JSON array, one object per attempt, and nothing else on standard output")
	fs.StringVar(&f.export, "export", "", "also write the run file here when the run ends (a .zip: a bundle with the media)")
	fs.StringVar(&f.browserPath, "browser", "", "the browser executable (default: $OBSERVATORY_CHROMIUM, else installed Chrome or Edge, else Chromium on PATH, else Playwright's Chromium)")
	fs.BoolVar(&f.noVideo, "no-video", false, "do not record a video of each attempt")
	fs.BoolVar(&f.trace, "trace", false, "also record a Playwright trace of each attempt (<slug>.trace.zip; open it with `npx playwright show-trace`)")
	fs.BoolVar(&f.noScreenshots, "no-screenshots", false, "do not store a screenshot before and after each action")
	f.overrides.register(fs)
	return cmd
}

func runLab(cmd *cobra.Command, env Env, g *globals, f *runFlags) error {
	lab, err := labs.Get(f.lab)
	if err != nil {
		return err
	}
	specs, err := runner.Select(lab, f.attempts)
	if err != nil {
		return err
	}
	st, dataDir, err := openStore(g)
	if err != nil {
		return err
	}
	defer st.Close()

	id := runner.NewRunID(time.Now())
	r := &runner.Runner{Lab: lab, Launch: app.LaunchChromium(f.headed, f.browserPath), Recorder: st, Emit: progressPrinter(env.Stderr)}
	fmt.Fprintf(env.Stderr, "run %s: %d attempts on lab %s (%s)\n", id, len(specs), lab.Name(), slugList(specs))
	run, err := r.Run(cmd.Context(), id, runner.Options{
		Attempts: f.attempts, Override: f.overrides.override(cmd.Flags()),
		MediaRoot: app.MediaRoot(dataDir), Video: !f.noVideo, Screenshots: !f.noScreenshots, Trace: f.trace,
	})
	if err != nil {
		return err
	}
	if f.export != "" {
		if err := exportFile(env, app.NewTransfer(st, dataDir), run.ID, f.export); err != nil {
			return err
		}
	}
	if f.json {
		return writeJSON(env.Stdout, jsonRows(run.Attempts))
	}
	printTable(env.Stdout, run.Attempts)
	fmt.Fprintln(env.Stdout)
	printReasons(env.Stdout, run.Attempts)
	if run.Status == agent.RunCancelled {
		return fmt.Errorf("run %s was cancelled", run.ID)
	}
	return nil
}

// progressPrinter reports a run's progress, one line per attempt, on w.
func progressPrinter(w io.Writer) func(runner.Progress) {
	return func(p runner.Progress) {
		switch p.Kind {
		case runner.AttemptStarted:
			fmt.Fprintf(w, "[%d/%d] %s ", p.Index, p.Total, p.Slug)
		case runner.StepDone:
			mark := "."
			if p.Step.Error != "" {
				mark = "x"
			}
			fmt.Fprint(w, mark)
		case runner.AttemptFinished:
			fmt.Fprintf(w, " %s\n", p.Attempt.Terminal)
		case runner.Error:
			fmt.Fprintf(w, "\nerror: %s\n", p.Message)
		}
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
