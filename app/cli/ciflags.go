package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"observatory/app"
	"observatory/app/version"
	"observatory/backend/agent"
	"observatory/backend/cireport"
	"observatory/backend/report"
)

// ciFlags are how a command reports to CI and what its exit status gates on: --report (junit=FILE,
// ctrf=FILE, github; repeatable), --min-rate, --fail-on and, for a shard, --shard-exit.
type ciFlags struct {
	reports []string
	minRate float64
	failOn  []string
	// shardExit is "verdict" (the default: the exit status gates on the verdicts) or
	// "written" (a shard exits 0 once its run file is written; the merge gates).
	shardExit string
}

func (c *ciFlags) register(fs *pflag.FlagSet, shard bool) {
	c.registerReports(fs)
	fs.Float64Var(&c.minRate, "min-rate", 0, "pass an attempt when its completion rate's 95% Wilson lower bound is at least this (0 to 1) instead of requiring every trial to complete")
	fs.StringArrayVar(&c.failOn, "fail-on", nil, "also fail on: flaky (an attempt whose trials disagree; matters with --min-rate)")
	if shard {
		fs.StringVar(&c.shardExit, "shard-exit", "verdict", "a shard's exit status: verdict (0 only when the gate passes) or written (0 once its run file is written: the merge owns the verdict)")
	}
}

// registerReports registers --report alone.
func (c *ciFlags) registerReports(fs *pflag.FlagSet) {
	fs.StringArrayVar(&c.reports, "report", nil, "also write a report CI reads (repeatable): junit=FILE (JUnit XML), ctrf=FILE (CTRF JSON), github (annotations and the step summary, under GitHub Actions), html=FILE (the run's HTML report, which the others attach); see docs/ci.md")
}

// check refuses flags that cannot work, before anything runs.
func (c *ciFlags) check() error {
	for _, r := range c.reports {
		kind, file, _ := strings.Cut(r, "=")
		switch {
		case (kind == "junit" || kind == "ctrf" || kind == "html") && file == "":
			return fmt.Errorf("--report %s: want %s=FILE", r, kind)
		case kind == "junit" || kind == "ctrf" || kind == "html":
			if info, err := os.Stat(filepath.Dir(file)); err != nil || !info.IsDir() {
				return fmt.Errorf("--report %s: %s is not a folder to write into", r, filepath.Dir(file))
			}
		case kind == "github" && file == "" && !strings.Contains(r, "="):
		default:
			return fmt.Errorf("--report %q: want junit=FILE, ctrf=FILE, github or html=FILE", r)
		}
	}
	if c.minRate < 0 || c.minRate > 1 {
		return fmt.Errorf("--min-rate %v: want a rate from 0 to 1", c.minRate)
	}
	for _, f := range c.failOn {
		if f != "flaky" {
			return fmt.Errorf("--fail-on %q: want flaky", f)
		}
	}
	if c.shardExit != "" && c.shardExit != "verdict" && c.shardExit != "written" {
		return fmt.Errorf("--shard-exit %q: want verdict or written", c.shardExit)
	}
	return nil
}

func (c *ciFlags) policy() cireport.Policy {
	return cireport.Policy{MinRate: c.minRate, FailOnFlaky: len(c.failOn) > 0}
}

// reportOf is runs' report under the flags' policy; files are the files every case points to
// (the run file), media a trial's files on disk (nil for none).
func (c *ciFlags) reportOf(runs []agent.Run, files []string, media func(agent.Attempt) []string) cireport.Report {
	r := cireport.Build(runs, c.policy())
	r.RunID, r.Version, r.Files, r.Media = ciRunID(runs), version.Get().Version, files, media
	return r
}

// write writes every report asked for: the HTML report first (html writes it; nil when the
// command has no one run to write it of), which the others then attach. Workflow commands go
// to standard output, or to standard error when standard output holds JSON (GitHub reads
// both).
func (c *ciFlags) write(env Env, rep cireport.Report, jsonOut bool, html func(io.Writer) error) error {
	var errs []error
	isHTML := func(r string) bool { return strings.HasPrefix(r, "html=") }
	reports := append(slices.DeleteFunc(slices.Clone(c.reports), func(r string) bool { return !isHTML(r) }),
		slices.DeleteFunc(slices.Clone(c.reports), isHTML)...)
	for _, r := range reports {
		kind, file, _ := strings.Cut(r, "=")
		var err error
		switch kind {
		case "html":
			if html == nil {
				err = errors.New("an HTML report is of one run: export each run of a suite with observatory export RUN -o FILE.html")
				break
			}
			if err = writeReport(file, html); err == nil {
				rep.Files = append(rep.Files, file)
			}
		case "junit":
			err = writeReport(file, func(w io.Writer) error { return cireport.WriteJUnit(w, rep) })
		case "ctrf":
			err = writeReport(file, func(w io.Writer) error { return cireport.WriteCTRF(w, rep, time.Now()) })
		case "github":
			err = writeGitHub(env, rep, jsonOut)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("--report %s: %w", r, err))
		} else if file != "" {
			fmt.Fprintf(env.Stderr, "wrote %s\n", safe(file))
		}
	}
	return errors.Join(errs...)
}

func writeReport(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeGitHub writes the workflow commands and appends the summary to $GITHUB_STEP_SUMMARY,
// when GITHUB_ACTIONS says the command runs in GitHub Actions.
func writeGitHub(env Env, rep cireport.Report, jsonOut bool) error {
	if os.Getenv("GITHUB_ACTIONS") != "true" {
		fmt.Fprintln(env.Stderr, "--report github: not in GitHub Actions (GITHUB_ACTIONS is not true): nothing written")
		return nil
	}
	cmds := env.Stdout
	if jsonOut {
		cmds = env.Stderr
	}
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return cireport.WriteGitHub(cmds, nil, rep)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := cireport.WriteGitHub(cmds, f, rep); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ciRunID names the logical run every shard of it shares, for CTRF's runId: OBSERVATORY_CI_RUN
// when set, else GitHub's run id and attempt, else the runs' suite run, else the first run's id.
func ciRunID(runs []agent.Run) string {
	if id := os.Getenv("OBSERVATORY_CI_RUN"); id != "" {
		return id
	}
	if id := os.Getenv("GITHUB_RUN_ID"); id != "" {
		return "github-" + id + "-" + os.Getenv("GITHUB_RUN_ATTEMPT")
	}
	if len(runs) == 0 {
		return ""
	}
	if runs[0].SuiteRun != "" {
		return runs[0].SuiteRun
	}
	return runs[0].ID
}

// gate is the command's verdict on runs under the flags' policy: nil when every attempt
// passes, else the error whose exit status is statusIncomplete. Without --min-rate and
// --fail-on it is notCompleted's: every trial must complete.
func (c *ciFlags) gate(runs []agent.Run) error {
	var attempts []agent.Attempt
	for _, run := range runs {
		attempts = append(attempts, run.Attempts...)
	}
	p := c.policy()
	if p == (cireport.Policy{}) {
		return notCompleted(attempts)
	}
	rep := cireport.Build(runs, p)
	var failed []string
	for _, cs := range rep.Cases {
		if cs.Failed {
			failed = append(failed, cs.Attempt)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return &incomplete{fmt.Sprintf("%d of %d attempts fail the gate (%s)", len(failed), len(rep.Cases), strings.Join(failed, ", "))}
}

// mediaDir is where the data folder keeps the media of run id.
func mediaDir(dataDir, id string) string { return filepath.Join(app.MediaRoot(dataDir), id) }

// mediaOf returns a trial's trace and video on disk, below the data folder's media of run id.
func mediaOf(dataDir, id string) func(agent.Attempt) []string {
	return func(a agent.Attempt) []string {
		var out []string
		for _, name := range []string{a.Trace, a.Video} {
			if name != "" {
				out = append(out, filepath.Join(mediaDir(dataDir, id), name))
			}
		}
		return out
	}
}

// htmlOf writes run's HTML report, its screenshots read from media (none when empty).
func htmlOf(run agent.Run, media string) func(io.Writer) error {
	return func(w io.Writer) error { return report.Write(w, run, media) }
}

// shardFlags choose a run's shard: --shard K/N, or --shard-index-env NAME with --shard-total N
// (the 0-based index in the environment variable NAME, as a Kubernetes Indexed Job sets
// JOB_COMPLETION_INDEX).
type shardFlags struct {
	shard    string
	indexEnv string
	total    int
}

func (s *shardFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&s.shard, "shard", "", "run only shard K/N of the attempts (every N-th from the K-th), to split a suite across machines; join the run files with observatory merge")
	fs.StringVar(&s.indexEnv, "shard-index-env", "", "run the shard whose 0-based index is in this environment variable (JOB_COMPLETION_INDEX in a Kubernetes Indexed Job), of --shard-total")
	fs.IntVar(&s.total, "shard-total", 0, "the number of shards, with --shard-index-env")
}

// of is the shard the flags choose; nil for the whole run.
func (s *shardFlags) of() (*app.Shard, error) {
	switch {
	case s.indexEnv == "" && s.total == 0:
		if s.shard == "" {
			return nil, nil
		}
		return app.ParseShard(s.shard)
	case s.shard != "":
		return nil, fmt.Errorf("--shard %s or --shard-index-env with --shard-total: not both", s.shard)
	case s.indexEnv == "" || s.total < 1:
		return nil, fmt.Errorf("--shard-index-env NAME and --shard-total N go together (N at least 1)")
	}
	v, ok := os.LookupEnv(s.indexEnv)
	if !ok {
		return nil, fmt.Errorf("--shard-index-env %s: the variable is not set", s.indexEnv)
	}
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || i < 0 || i >= s.total {
		return nil, fmt.Errorf("--shard-index-env %s=%q: want an index from 0 to %d (--shard-total %d)", s.indexEnv, v, s.total-1, s.total)
	}
	return &app.Shard{K: i + 1, N: s.total}, nil
}
