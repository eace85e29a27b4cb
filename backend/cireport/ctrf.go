package cireport

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"path/filepath"
	"time"
)

// CTRFVersion is the Common Test Report Format version WriteCTRF writes: the schema the
// ctrf npm package 0.3.0 ships (src/ctrf-schema-0.0.json), which has runId.
const CTRFVersion = "0.0.0"

type ctrfDoc struct {
	ReportFormat string      `json:"reportFormat"`
	SpecVersion  string      `json:"specVersion"`
	RunID        string      `json:"runId,omitempty"`
	Timestamp    string      `json:"timestamp"`
	GeneratedBy  string      `json:"generatedBy"`
	Results      ctrfResults `json:"results"`
}

type ctrfResults struct {
	Tool    ctrfTool    `json:"tool"`
	Summary ctrfSummary `json:"summary"`
	Tests   []ctrfTest  `json:"tests"`
}

type ctrfTool struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type ctrfSummary struct {
	Tests    int   `json:"tests"`
	Passed   int   `json:"passed"`
	Failed   int   `json:"failed"`
	Skipped  int   `json:"skipped"`
	Pending  int   `json:"pending"`
	Other    int   `json:"other"`
	Flaky    int   `json:"flaky"`
	Suites   int   `json:"suites"`
	Start    int64 `json:"start"`
	Stop     int64 `json:"stop"`
	Duration int64 `json:"duration"`
}

type ctrfTest struct {
	Name          string           `json:"name"`
	Status        string           `json:"status"`
	Duration      int64            `json:"duration"`
	Start         int64            `json:"start,omitempty"`
	Suite         []string         `json:"suite"`
	Message       string           `json:"message,omitempty"`
	RawStatus     string           `json:"rawStatus,omitempty"`
	Labels        map[string]any   `json:"labels,omitempty"`
	Retries       int              `json:"retries,omitempty"`
	RetryAttempts []ctrfAttempt    `json:"retryAttempts,omitempty"`
	Flaky         bool             `json:"flaky"`
	Stdout        []string         `json:"stdout,omitempty"`
	Attachments   []ctrfAttachment `json:"attachments,omitempty"`
	Extra         map[string]any   `json:"extra,omitempty"`
}

type ctrfAttempt struct {
	Attempt  int            `json:"attempt"`
	Status   string         `json:"status"`
	Duration int64          `json:"duration"`
	Message  string         `json:"message,omitempty"`
	Start    int64          `json:"start,omitempty"`
	Extra    map[string]any `json:"extra"`
}

type ctrfAttachment struct {
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Path        string `json:"path"`
}

// WriteCTRF writes r as a CTRF document. A repeated attempt is one test; its trials before
// the last are its retryAttempts (each marked extra.trial, since they are trials run on
// purpose, not retries of a failure), and its estimates are in extra.
func WriteCTRF(w io.Writer, r Report, now time.Time) error {
	doc := ctrfDoc{ReportFormat: "CTRF", SpecVersion: CTRFVersion, RunID: r.RunID, Timestamp: now.UTC().Format(time.RFC3339),
		GeneratedBy: "Observatory", Results: ctrfResults{Tool: ctrfTool{Name: "observatory", Version: r.Version},
			Summary: ctrfSummary{Start: ms(r.Start), Stop: ms(r.Stop), Duration: r.Stop.Sub(r.Start).Milliseconds(), Suites: len(r.tasks())},
			Tests:   []ctrfTest{}}}
	for _, c := range r.Cases {
		t := ctrfTest{Name: c.Task + " › " + c.Name(), Status: "passed", Duration: c.Duration.Milliseconds(), Suite: []string{c.Task},
			Flaky: c.Flaky, Labels: map[string]any{"task": c.Task, "attempt": c.Attempt}}
		if len(c.Trials) > 0 {
			t.Start = ms(c.Trials[0].Started)
		}
		if c.Failed {
			t.Status, t.Message = "failed", c.Why
		}
		if len(c.Wrong) > 0 {
			t.Labels["wrong"] = c.Wrong
		}
		last := c.Trials[len(c.Trials)-1]
		t.RawStatus = orUnfinished(string(last.Terminal))
		if c.Repeated() {
			t.Retries = len(c.Trials) - 1
			for _, a := range c.Trials[:len(c.Trials)-1] {
				at := ctrfAttempt{Attempt: a.Trial, Status: trialStatus(a.Terminal == "completed"), Duration: wall(a).Milliseconds(),
					Start: ms(a.Started), Extra: map[string]any{"trial": true, "terminal": orUnfinished(string(a.Terminal))}}
				if a.Terminal != "completed" {
					at.Message = Sentence(a.Reason)
				}
				t.RetryAttempts = append(t.RetryAttempts, at)
			}
			t.Extra = map[string]any{"trials": len(c.Trials), "completed": c.Completed, "rate": c.Rate(),
				"wilson_low": c.Interval.Lo, "wilson_high": c.Interval.Hi, fmt.Sprintf("pass_hat_%d", len(c.Trials)): c.PassHatK}
		}
		if a := c.Against; a != nil {
			if t.Extra == nil {
				t.Extra = map[string]any{}
			}
			t.Extra["baseline"] = map[string]any{"completed": a.A.K, "trials": a.A.N, "difference": a.Difference,
				"difference_low": a.Interval.Lo, "difference_high": a.Interval.Hi, "test": a.Test, "p": a.P, "verdict": a.Verdict}
		}
		for _, a := range c.Trials {
			t.Stdout = append(t.Stdout, fmt.Sprintf("%s: %s: %s", a.Slug, orUnfinished(string(a.Terminal)), Sentence(a.Reason)))
		}
		for _, p := range r.attachments(c) {
			t.Attachments = append(t.Attachments, ctrfAttachment{Name: filepath.Base(p), ContentType: contentType(p), Path: p})
		}
		doc.Results.Tests = append(doc.Results.Tests, t)
		s := &doc.Results.Summary
		s.Tests++
		if c.Failed {
			s.Failed++
		} else {
			s.Passed++
		}
		if c.Flaky {
			s.Flaky++
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

func trialStatus(completed bool) string {
	if completed {
		return "passed"
	}
	return "failed"
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// contentType is the MIME type of a file by its extension (the system's table knows .webm
// as audio); application/octet-stream when unknown.
func contentType(path string) string {
	if t, ok := map[string]string{".webm": "video/webm", ".zip": "application/zip", ".json": "application/json", ".html": "text/html"}[filepath.Ext(path)]; ok {
		return t
	}
	if t := mime.TypeByExtension(filepath.Ext(path)); t != "" {
		return t
	}
	return "application/octet-stream"
}
