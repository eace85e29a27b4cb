// Package retention decides which stored runs a retention policy lets go: those past the
// newest KeepLast, or added to the history more than KeepDays days ago. It only decides;
// the caller deletes, and skips the runs it must keep (one still being written, the one on
// screen). Pure.
package retention

import (
	"fmt"
	"time"
)

// MaxDays bounds KeepDays: a century, past which a limit is a typo.
const MaxDays = 36500

// Policy is the retention setting. A zero field turns its limit off; the zero Policy (the
// default) keeps every run. With both set, a run goes when it is past either limit.
type Policy struct {
	// KeepLast keeps the newest KeepLast runs (by when they were added to the history).
	KeepLast int `json:"keep_last,omitempty"`
	// KeepDays keeps the runs added within the last KeepDays days.
	KeepDays int `json:"keep_days,omitempty"`
}

// Off reports whether the policy keeps every run.
func (p Policy) Off() bool { return p.KeepLast == 0 && p.KeepDays == 0 }

// Validate says what is wrong with a policy, and what to do.
func (p Policy) Validate() error {
	if p.KeepLast < 0 {
		return fmt.Errorf("retention: keep the last %d runs: want 0 (no limit) or more", p.KeepLast)
	}
	if p.KeepDays < 0 || p.KeepDays > MaxDays {
		return fmt.Errorf("retention: keep runs newer than %d days: want 0 (no limit) to %d", p.KeepDays, MaxDays)
	}
	return nil
}

// Run is what the policy judges a stored run by.
type Run struct {
	ID string
	// Added is when the run came into this history: its start, or its import.
	Added time.Time
}

// Expired returns the IDs of the runs p lets go, at now, in the order given. runs must be
// newest added first, as the store lists them.
func (p Policy) Expired(runs []Run, now time.Time) []string {
	if p.Off() {
		return nil
	}
	cutoff := now.AddDate(0, 0, -p.KeepDays)
	var out []string
	for k, r := range runs {
		if (p.KeepLast > 0 && k >= p.KeepLast) || (p.KeepDays > 0 && r.Added.Before(cutoff)) {
			out = append(out, r.ID)
		}
	}
	return out
}
