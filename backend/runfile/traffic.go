package runfile

import (
	"slices"

	"observatory/backend/agent"
)

// checkTraffic refuses a step's network and console record beyond what a recording can
// hold (agent's limits): too many requests, messages or errors in the step or in the
// attempt so far, a header list, body or text too long, all the attempt's bodies together
// too large, or a negative time or count. totals carries the attempt's counts from step to
// step.
func checkTraffic(p string, t agent.Traffic, totals *trafficTotals) *Error {
	if err := countWithin(child(p, "requests"), len(t.Requests), agent.MaxStepRequests, &totals.requests, agent.MaxAttemptRequests); err != nil {
		return err
	}
	if err := countWithin(child(p, "console"), len(t.Console), agent.MaxStepMessages, &totals.console, agent.MaxAttemptMessages); err != nil {
		return err
	}
	if err := countWithin(child(p, "page_errors"), len(t.Errors), agent.MaxStepMessages, &totals.errors, agent.MaxAttemptMessages); err != nil {
		return err
	}
	for _, d := range []struct {
		name string
		n    int
	}{{"requests", t.Dropped.Requests}, {"console", t.Dropped.Console}, {"errors", t.Dropped.Errors}} {
		if d.n < 0 {
			return refuse(child(child(p, "dropped"), d.name), "%d: a count is never negative", d.n)
		}
	}
	for i, r := range t.Requests {
		if err := checkRequest(index(child(p, "requests"), i), r, totals); err != nil {
			return err
		}
	}
	for i, m := range t.Console {
		mp := index(child(p, "console"), i)
		if err := textsWithin(mp, map[string]string{"level": m.Level, "text": m.Text, "location": m.Location}); err != nil {
			return err
		}
		if err := notNegative(child(mp, "at_ms"), m.AtMS); err != nil {
			return err
		}
	}
	for i, e := range t.Errors {
		ep := index(child(p, "page_errors"), i)
		if err := textsWithin(ep, map[string]string{"message": e.Message, "stack": e.Stack}); err != nil {
			return err
		}
		if err := notNegative(child(ep, "at_ms"), e.AtMS); err != nil {
			return err
		}
	}
	return nil
}

// trafficTotals are an attempt's counts so far, against the per-attempt limits.
type trafficTotals struct {
	requests, console, errors, bodyBytes int
}

// countWithin refuses n items at path beyond the step's limit, or beyond the attempt's once
// added to its total.
func countWithin(path string, n, perStep int, total *int, perAttempt int) *Error {
	if n > perStep {
		return refuse(path, "%d items: a step records at most %d", n, perStep)
	}
	*total += n
	if *total > perAttempt {
		return refuse(path, "%d items in the attempt so far: an attempt records at most %d", *total, perAttempt)
	}
	return nil
}

// checkRequest checks one request's texts, numbers, headers and bodies.
func checkRequest(p string, r agent.Request, totals *trafficTotals) *Error {
	if err := textsWithin(p, map[string]string{"method": r.Method, "url": r.URL, "resource_type": r.ResourceType,
		"status_text": r.StatusText, "failure": r.Failure}); err != nil {
		return err
	}
	if r.Status < 0 || r.Status > 999 {
		return refuse(child(p, "status"), "%d: an HTTP status lies between 100 and 999 (0: no response)", r.Status)
	}
	if r.Size < -1 {
		return refuse(child(p, "size"), "%d: a size is a number of bytes, or -1 when unknown", r.Size)
	}
	for _, n := range []struct {
		name string
		v    int64
	}{{"start_ms", r.StartMS}, {"duration_ms", r.DurationMS}} {
		if err := notNegative(child(p, n.name), n.v); err != nil {
			return err
		}
	}
	for _, hs := range []struct {
		name string
		list []agent.Header
	}{{"request_headers", r.RequestHeaders}, {"response_headers", r.ResponseHeaders}} {
		hp := child(p, hs.name)
		if len(hs.list) > agent.MaxHeaders {
			return refuse(hp, "%d headers: a request or response records at most %d", len(hs.list), agent.MaxHeaders)
		}
		for i, h := range hs.list {
			if err := textsWithin(index(hp, i), map[string]string{"name": h.Name, "value": h.Value}); err != nil {
				return err
			}
		}
	}
	for _, b := range []struct {
		name string
		body *agent.Body
	}{{"request_body", r.RequestBody}, {"response_body", r.ResponseBody}} {
		if b.body == nil {
			continue
		}
		bp := child(p, b.name)
		if n := len(b.body.Text); n > agent.MaxBodyBytes {
			return refuse(child(bp, "text"), "%d bytes: a body records at most %d", n, agent.MaxBodyBytes)
		}
		totals.bodyBytes += len(b.body.Text)
		if totals.bodyBytes > agent.MaxAttemptBodyBytes {
			return refuse(child(bp, "text"), "%d bytes of bodies in the attempt so far: an attempt records at most %d", totals.bodyBytes, agent.MaxAttemptBodyBytes)
		}
		if err := textsWithin(bp, map[string]string{"mime_type": b.body.MimeType}); err != nil {
			return err
		}
	}
	return nil
}

// textsWithin refuses a text, named by its member, longer than agent.MaxTextBytes.
func textsWithin(p string, texts map[string]string) *Error {
	for _, name := range []string{"method", "url", "resource_type", "status_text", "failure", "name", "value",
		"level", "text", "location", "message", "stack", "mime_type"} {
		if v, ok := texts[name]; ok && len(v) > agent.MaxTextBytes {
			return refuse(child(p, name), "%d bytes: a text here records at most %d", len(v), agent.MaxTextBytes)
		}
	}
	return nil
}

// unknownSizes is run with every negative request size as -1, unknown: Chromium reports a
// memory-cache hit's size as minus its length, which runs recorded before the browser
// checked sizes kept. The slices run shares with its caller are not changed.
func unknownSizes(run agent.Run) agent.Run {
	bad := func(r agent.Request) bool { return r.Size < -1 }
	badStep := func(s agent.Step) bool { return slices.ContainsFunc(s.Traffic.Requests, bad) }
	cloned := false
	for ai, a := range run.Attempts {
		if !slices.ContainsFunc(a.Steps, badStep) {
			continue
		}
		if !cloned {
			run.Attempts, cloned = slices.Clone(run.Attempts), true
		}
		steps := slices.Clone(a.Steps)
		for si, s := range steps {
			if !badStep(s) {
				continue
			}
			reqs := slices.Clone(s.Traffic.Requests)
			for ri := range reqs {
				reqs[ri].Size = max(reqs[ri].Size, -1)
			}
			steps[si].Traffic.Requests = reqs
		}
		run.Attempts[ai].Steps = steps
	}
	return run
}
