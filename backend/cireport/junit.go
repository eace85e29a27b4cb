package cireport

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// JUnit XML as GitLab and Jenkins read it: one testsuite per task, one testcase per attempt
// (classname the task, name the attempt, unique), a failure whose type is the terminal state
// of the first trial that did not complete and whose message says why in one sentence,
// properties for the estimates and the checks marked wrong, Surefire's flakyFailure (the case
// passed) or rerunFailure (it failed) for each further trial that did not complete, and one
// system-out holding the reason and an [[ATTACHMENT|path]] line per existing file.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr,omitempty"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	ClassName  string         `xml:"classname,attr"`
	Name       string         `xml:"name,attr"`
	Time       string         `xml:"time,attr"`
	Properties *junitProps    `xml:"properties"`
	Failure    *junitFailure  `xml:"failure"`
	Flaky      []junitFailure `xml:"flakyFailure"`
	Rerun      []junitFailure `xml:"rerunFailure"`
	SystemOut  *junitCharData `xml:"system-out"`
}

type junitProps struct {
	Props []junitProp `xml:"property"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitFailure struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",innerxml"`
}

// junitCharData is element text written with its line breaks as they are (the encoder's
// chardata would write them as character references), so that each [[ATTACHMENT|path]] is a
// line of its own in the file, as Jenkins' plugin reads it.
type junitCharData struct {
	Text string `xml:",innerxml"`
}

// xmlText is s as XML element text: &, < and > escaped, and characters XML cannot hold left
// out.
func xmlText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			return r
		}
		return -1
	}, s)
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// WriteJUnit writes r as JUnit XML.
func WriteJUnit(w io.Writer, r Report) error {
	doc := junitSuites{Name: "observatory", Time: seconds(r.Stop.Sub(r.Start))}
	for _, t := range r.tasks() {
		s := junitSuite{Name: t.name}
		if !r.Start.IsZero() {
			s.Timestamp = r.Start.UTC().Format("2006-01-02T15:04:05")
		}
		var total float64
		for _, c := range t.cases {
			jc := r.junitCase(c)
			s.Cases = append(s.Cases, jc)
			s.Tests++
			if c.Failed {
				s.Failures++
			}
			total += c.Duration.Seconds()
		}
		s.Time = strconv.FormatFloat(total, 'f', 3, 64)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Suites = append(doc.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func (r Report) junitCase(c Case) junitCase {
	jc := junitCase{ClassName: c.Task, Name: c.Name(), Time: seconds(c.Duration)}
	var props []junitProp
	prop := func(name, value string) { props = append(props, junitProp{name, value}) }
	if c.Repeated() {
		prop("trials", strconv.Itoa(len(c.Trials)))
		prop("completed", strconv.Itoa(c.Completed))
		prop("rate", ratio(c.Rate()))
		prop("wilson_low", ratio(c.Interval.Lo))
		prop("wilson_high", ratio(c.Interval.Hi))
		prop(fmt.Sprintf("pass_hat_%d", len(c.Trials)), ratio(c.PassHatK))
		prop("flaky", strconv.FormatBool(c.Flaky))
	} else if len(c.Trials) == 1 {
		prop("terminal", string(c.Trials[0].Terminal))
	}
	for _, w := range c.Wrong {
		prop("wrong", w)
	}
	if a := c.Against; a != nil {
		prop("baseline_completed", strconv.Itoa(a.A.K))
		prop("baseline_trials", strconv.Itoa(a.A.N))
		prop("difference", ratio(a.Difference))
		prop("difference_low", ratio(a.Interval.Lo))
		prop("difference_high", ratio(a.Interval.Hi))
		prop("test", a.Test)
		prop("p", strconv.FormatFloat(a.P, 'g', 4, 64))
		prop("comparison", a.Verdict)
	}
	if len(props) > 0 {
		jc.Properties = &junitProps{props}
	}
	failures := c.Failures()
	if c.Failed {
		jc.Failure = &junitFailure{Type: c.failureType(), Message: c.Why, Text: xmlText(c.Why)}
		if len(failures) > 0 {
			failures = failures[1:] // the failure element is the first of them
		}
	}
	for _, f := range failures {
		e := junitFailure{Type: string(f.Terminal), Message: fmt.Sprintf("trial %d: %s", f.Trial, Sentence(f.Reason))}
		if c.Failed {
			jc.Rerun = append(jc.Rerun, e)
		} else {
			jc.Flaky = append(jc.Flaky, e)
		}
	}
	var out strings.Builder
	for _, a := range c.Trials {
		fmt.Fprintf(&out, "%s: %s: %s\n", a.Slug, orUnfinished(string(a.Terminal)), Sentence(a.Reason))
	}
	for _, w := range c.Wrong {
		fmt.Fprintf(&out, "wrong: %s disagreed with the ground truth\n", w)
	}
	for _, p := range r.attachments(c) {
		fmt.Fprintf(&out, "[[ATTACHMENT|%s]]\n", p)
	}
	jc.SystemOut = &junitCharData{"\n" + xmlText(out.String())}
	return jc
}

func orUnfinished(terminal string) string {
	if terminal == "" {
		return "unfinished"
	}
	return terminal
}

func seconds(d interface{ Seconds() float64 }) string {
	return strconv.FormatFloat(max(d.Seconds(), 0), 'f', 3, 64)
}

func ratio(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
