package agent

import (
	"fmt"
	"strings"
)

// MaxTrials is the most times one attempt may be repeated in a run.
const MaxTrials = 1000

// TrialSlug is the slug of trial k (from 1) of the attempt slug: "slug.t2". Every trial is an
// attempt of its own in the run, started in a fresh context on a fresh copy of the app.
func TrialSlug(slug string, k int) string { return fmt.Sprintf("%s.t%d", slug, k) }

// BaseSlug is the attempt an attempt is a trial of: its slug without the trial suffix, or
// the slug itself for an attempt that is no trial (trial 0).
func BaseSlug(slug string, trial int) string {
	if trial <= 0 {
		return slug
	}
	return strings.TrimSuffix(slug, fmt.Sprintf(".t%d", trial))
}

// Base is the attempt this one is a trial of (see BaseSlug).
func (a Attempt) Base() string { return BaseSlug(a.Slug, a.Trial) }

// Trials is every spec repeated n times, each trial numbered from 1 and named by TrialSlug,
// one attempt's trials together. With n of 1 or less the specs are returned as they are:
// a single run has no trials.
func Trials(specs []AttemptSpec, n int) ([]AttemptSpec, error) {
	if n > MaxTrials {
		return nil, fmt.Errorf("repeat %d: want at most %d trials of each attempt", n, MaxTrials)
	}
	if n <= 1 {
		return specs, nil
	}
	out := make([]AttemptSpec, 0, len(specs)*n)
	for _, s := range specs {
		for k := 1; k <= n; k++ {
			t := s
			t.Slug, t.Trial = TrialSlug(s.Slug, k), k
			out = append(out, t)
		}
	}
	return out, nil
}
