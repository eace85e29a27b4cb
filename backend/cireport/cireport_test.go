package cireport

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/cireport/cireporttest"
	"observatory/backend/compare"
)

// trial is a trial k of slug that ended in terminal, with one step of 1.5 s; wrongNotice
// makes the "notice" signal say done against a ground truth of not done.
func trial(slug string, k int, terminal agent.Terminal, wrongNotice bool) agent.Attempt {
	done := terminal == agent.Completed
	v := agent.Verdicts{Truth: agent.Signal{ID: "truth", Label: "saved", Verdict: agent.Verdict{Done: done}},
		Signals: []agent.Signal{{ID: "notice", Label: "success notice", Verdict: agent.Verdict{Done: done || wrongNotice}}},
		Gate:    agent.Gate{Done: done}}
	slugK := slug
	if k > 0 {
		slugK = agent.TrialSlug(slug, k)
	}
	return agent.Attempt{Slug: slugK, Trial: k, Title: slug, Terminal: terminal, Reason: "it ended: " + string(terminal) + "\nsecond line",
		Verdicts: v, Started: time.Date(2026, 12, 6, 4, 0, k, 0, time.UTC), Steps: []agent.Step{{StartMS: 0, DurationMS: 1500}}}
}

// run is a run of task "t" with three trials each of a steady, a flaky (2 of 3) and a broken
// attempt whose notice is wrong.
func run() agent.Run {
	var atts []agent.Attempt
	for k := 1; k <= 3; k++ {
		atts = append(atts, trial("steady", k, agent.Completed, false))
	}
	atts = append(atts, trial("flaky", 1, agent.Completed, false), trial("flaky", 2, agent.Failed, false), trial("flaky", 3, agent.Completed, false))
	for k := 1; k <= 3; k++ {
		atts = append(atts, trial("broken", k, agent.Failed, true))
	}
	return agent.Run{ID: "r1", Task: "t", Attempts: atts}
}

// TestPolicyDecidesEachCase checks the verdicts under the three policies: every trial must
// complete; a Wilson lower bound (2 of 3 is [21%, 94%]); and that bound with flaky failing.
func TestPolicyDecidesEachCase(t *testing.T) {
	for _, tc := range []struct {
		p    Policy
		want string
	}{
		{Policy{}, "steady pass, flaky fail, broken fail"},
		{Policy{MinRate: 0.2}, "steady pass, flaky pass, broken fail"},
		{Policy{MinRate: 0.2, FailOnFlaky: true}, "steady pass, flaky fail, broken fail"},
		{Policy{MinRate: 0.5}, "steady fail, flaky fail, broken fail"}, // 3 of 3 is [44%, 100%]
	} {
		var got []string
		for _, c := range Build([]agent.Run{run()}, tc.p).Cases {
			v := "pass"
			if c.Failed {
				v = "fail"
			}
			got = append(got, c.Attempt+" "+v)
		}
		if strings.Join(got, ", ") != tc.want {
			t.Errorf("%+v: %s, want %s", tc.p, strings.Join(got, ", "), tc.want)
		}
	}
}

type parsedCase struct {
	ClassName string `xml:"classname,attr"`
	Name      string `xml:"name,attr"`
	Props     []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	} `xml:"properties>property"`
	Failure *struct {
		Type    string `xml:"type,attr"`
		Message string `xml:"message,attr"`
	} `xml:"failure"`
	Flaky []struct{} `xml:"flakyFailure"`
	Rerun []struct{} `xml:"rerunFailure"`
	Out   string     `xml:"system-out"`
}

// TestJUnitMarksFlakyAndWrong writes the run as JUnit under a rate policy: the flaky attempt
// passes with a flakyFailure for its failed trial, the broken one fails with its terminal as
// the type, a one-sentence message and two rerunFailures, and its wrong notice is a property.
// Only files that exist are attached, each on a line of its own.
func TestJUnitMarksFlakyAndWrong(t *testing.T) {
	dir := t.TempDir()
	runFile := filepath.Join(dir, "run.json")
	if err := os.WriteFile(runFile, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := Build([]agent.Run{run()}, Policy{MinRate: 0.2})
	rep.Files = []string{runFile, filepath.Join(dir, "gone.html")}
	var b bytes.Buffer
	if err := WriteJUnit(&b, rep); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string       `xml:"name,attr"`
			Cases []parsedCase `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if doc.Tests != 3 || doc.Failures != 1 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 3 {
		t.Fatalf("tests %d, failures %d, suites %+v: want 3 tests, 1 failure, one suite", doc.Tests, doc.Failures, doc.Suites)
	}
	cases := map[string]parsedCase{}
	for _, c := range doc.Suites[0].Cases {
		cases[c.Name] = c
		if c.ClassName != "t" {
			t.Errorf("%s: classname %q, want the task", c.Name, c.ClassName)
		}
		if !strings.Contains(c.Out, "\n[["+"ATTACHMENT|"+runFile+"]]\n") || strings.Contains(c.Out, "gone.html") {
			t.Errorf("%s: system-out %q: want the run file attached on a line of its own, and no file that does not exist", c.Name, c.Out)
		}
	}
	prop := func(c parsedCase, name string) []string {
		var out []string
		for _, p := range c.Props {
			if p.Name == name {
				out = append(out, p.Value)
			}
		}
		return out
	}
	if f := cases["flaky"]; f.Failure != nil || len(f.Flaky) != 1 || prop(f, "flaky")[0] != "true" || prop(f, "completed")[0] != "2" ||
		prop(f, "wilson_low")[0] != "0.2077" || prop(f, "pass_hat_3")[0] != "0.0000" {
		t.Errorf("flaky case %+v: want passed, one flakyFailure, flaky true, 2 completed, lower bound 0.2077, pass^3 0", f)
	}
	if b := cases["broken"]; b.Failure == nil || b.Failure.Type != "failed" || len(b.Rerun) != 2 ||
		b.Failure.Message != "0 of 3 trials completed: the rate's 95% lower bound 0% is below the required 20%." ||
		strings.Join(prop(b, "wrong"), "|") != "success notice (t1, t2, t3)" {
		t.Errorf("broken case %+v: want a failure of type failed, its reason in one sentence, two rerunFailures, the notice wrong", b)
	}
}

// TestCTRFValidates writes the run as CTRF and validates it against the schema the ctrf npm
// package 0.3.0 ships; the flaky attempt is flagged, the trials are retryAttempts.
func TestCTRFValidates(t *testing.T) {
	rep := Build([]agent.Run{run()}, Policy{})
	rep.RunID = "run-1"
	var b bytes.Buffer
	if err := WriteCTRF(&b, rep, time.Now()); err != nil {
		t.Fatal(err)
	}
	cireporttest.ValidateCTRF(t, b.Bytes())
	for _, want := range []string{`"flaky": true`, `"runId": "run-1"`, `"retries": 2`, `"flaky": 1`, `"failed": 2`, `"passed": 1`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("CTRF lacks %s:\n%s", want, b.String())
		}
	}
}

// TestGitHubCapsAndEscapes builds 25 failed and 12 flaky attempts with names and reasons
// that hold GitHub's special characters: at most 10 errors and 10 warnings, the last of each
// counting the rest, every value escaped; and 10,000 attempts keep the summary under its cap.
func TestGitHubCapsAndEscapes(t *testing.T) {
	var atts []agent.Attempt
	for i := range 25 {
		a := trial(fmt.Sprintf("bad:%d,x", i), 0, agent.Failed, false)
		atts = append(atts, a)
	}
	for i := range 12 {
		for k := 1; k <= 2; k++ {
			terminal := agent.Completed
			if k == 2 {
				terminal = agent.Failed
			}
			atts = append(atts, trial(fmt.Sprintf("coin%d", i), k, terminal, false))
		}
	}
	rep := Build([]agent.Run{{ID: "r", Task: "t", Attempts: atts}}, Policy{MinRate: 0.01})
	var cmds, summary bytes.Buffer
	if err := WriteGitHub(&cmds, &summary, rep); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(cmds.String()), "\n")
	count := map[string]int{}
	for _, l := range lines {
		count[strings.SplitN(l, " ", 2)[0]]++
	}
	if count["::error"] != 10 || count["::warning"] != 10 || count["::notice"] != 1 || len(lines) != 21 {
		t.Errorf("annotations %v: want 10 errors, 10 warnings, 1 notice\n%s", count, cmds.String())
	}
	if want := "::error title=t/bad%3A0%2Cx::0 of 1 trials completed: the rate's 95%25 lower bound 0%25"; !strings.HasPrefix(lines[0], want) {
		t.Errorf("first error %q, want it escaped: %q", lines[0], want)
	}
	if got := escapeData("50% a\r\nb:c,d") + " " + escapeProperty("50% a\r\nb:c,d"); got != "50%25 a%0D%0Ab:c,d 50%25 a%0D%0Ab%3Ac%2Cd" {
		t.Errorf("escaped %q", got)
	}
	if !strings.Contains(lines[9], "16 more attempts failed") || !strings.Contains(lines[19], "3 more attempts are flaky") {
		t.Errorf("the last error and warning %q, %q: want them counting the rest", lines[9], lines[19])
	}
	if !strings.Contains(summary.String(), "| t | coin0 | ✅ passed | 1/2 | 50% | [9%, 91%] | 0.00 | flaky |") {
		t.Errorf("summary lacks the flaky row with its interval:\n%s", summary.String())
	}
	var many []agent.Attempt
	for i := range 10000 {
		many = append(many, trial(fmt.Sprintf("attempt-with-a-long-name-%05d", i), 0, agent.Failed, true))
	}
	md := Build([]agent.Run{{ID: "r", Task: "t", Attempts: many}}, Policy{}).markdown(MaxSummary)
	if len(md) > MaxSummary || !strings.Contains(md, "more attempts left out") {
		t.Errorf("summary of 10,000 attempts: %d bytes (cap %d), truncation noted %v", len(md), MaxSummary, strings.Contains(md, "more attempts left out"))
	}
}

// TestAgainstFailsARegression reports run B against run A: the attempt B completes in none of
// six trials where A completed all six is a regression (McNemar's p = 0.031) and fails; the
// one that completes in both passes, whatever B's own policy would say.
func TestAgainstFailsARegression(t *testing.T) {
	var a, b []agent.Attempt
	for k := 1; k <= 6; k++ {
		a = append(a, trial("steady", k, agent.Completed, false), trial("broke", k, agent.Completed, false))
		b = append(b, trial("steady", k, agent.Completed, false), trial("broke", k, agent.Failed, false))
	}
	runA, runB := agent.Run{ID: "a", Task: "t", Attempts: a}, agent.Run{ID: "b", Task: "t", Attempts: b}
	rep := Build([]agent.Run{runB}, Policy{})
	rep.Against(compare.Rates(runA, runB), false)
	var got []string
	for _, c := range rep.Cases {
		got = append(got, fmt.Sprintf("%s %v", c.Attempt, c.Failed))
	}
	if strings.Join(got, ", ") != "steady false, broke true" || !strings.HasPrefix(rep.Cases[1].Why, "a regression against a: 0/6 against 6/6") {
		t.Errorf("cases %v, why %q: want broke failed as a regression", got, rep.Cases[1].Why)
	}
	var md bytes.Buffer
	if err := WriteGitHub(io.Discard, &md, rep); err != nil || !strings.Contains(md.String(), "| 6/6, -100% [") {
		t.Errorf("summary (%v): want the baseline column:\n%s", err, md.String())
	}
}
