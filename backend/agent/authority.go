package agent

import (
	"fmt"
	"regexp"
)

// Probe says where one fact about the page is read on every observation: an element (by
// test id or CSS selector; its value, content attribute or visible text), a cookie, or a
// local-storage key. Exactly one of TestID, CSS, Cookie and Storage is set.
type Probe struct {
	// ID names the fact ("price", "recipient"); a principal or version probe needs none.
	ID      string `json:"id,omitempty"`
	TestID  string `json:"test_id,omitempty"`
	CSS     string `json:"css,omitempty"`
	Cookie  string `json:"cookie,omitempty"`
	Storage string `json:"storage,omitempty"`
}

// Authority is what a task declares about whose authority its actions run under and which
// text justifies them: where the signed-in account (the principal) is read, the relevant
// text a high-risk action depends on (a price, a recipient, an amount), the page's or API's
// version when it exposes one, and how old an observation may be before a commit re-takes
// it. Every field is optional.
type Authority struct {
	Principal *Probe  `json:"principal,omitempty"`
	Relevant  []Probe `json:"relevant,omitempty"`
	Version   *Probe  `json:"version,omitempty"`
	// FreshnessMS is how old, in milliseconds, the observation a commit acts on may be; an
	// older one is re-taken, and the commit decided again, before it acts. 0 means no limit.
	FreshnessMS int `json:"freshness_ms,omitempty"`
}

// Fact is one task-declared relevant text as observed.
type Fact struct {
	ID    string `json:"id"`
	Value string `json:"value"`
}

// Limits of an authority declaration: MaxRelevant relevant texts.
const (
	MaxRelevant    = 16
	maxFreshnessMS = 3600000
)

var factID = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// Locators counts the places p reads from; a valid probe has exactly one.
func (p Probe) Locators() int {
	n := 0
	for _, s := range []string{p.TestID, p.CSS, p.Cookie, p.Storage} {
		if s != "" {
			n++
		}
	}
	return n
}

// Validate says what is wrong with a, naming the field, or returns nil.
func (a *Authority) Validate() error {
	if a == nil {
		return nil
	}
	one := func(where string, p *Probe) error {
		if p != nil && p.Locators() != 1 {
			return fmt.Errorf("%s: set exactly one of test_id, css, cookie and storage (it has %d)", where, p.Locators())
		}
		return nil
	}
	if err := one("principal", a.Principal); err != nil {
		return err
	}
	if err := one("version", a.Version); err != nil {
		return err
	}
	if len(a.Relevant) > MaxRelevant {
		return fmt.Errorf("relevant: %d texts, at most %d", len(a.Relevant), MaxRelevant)
	}
	seen := map[string]bool{}
	for i, p := range a.Relevant {
		where := fmt.Sprintf("relevant[%d]", i)
		switch {
		case !factID.MatchString(p.ID):
			return fmt.Errorf("%s.id %q: want a lower-case name such as price or recipient", where, p.ID)
		case seen[p.ID]:
			return fmt.Errorf("%s.id %q: declared twice", where, p.ID)
		}
		seen[p.ID] = true
		if err := one(where, &a.Relevant[i]); err != nil {
			return err
		}
	}
	if a.FreshnessMS < 0 || a.FreshnessMS > maxFreshnessMS {
		return fmt.Errorf("freshness_ms %d: want 0 (no limit) to %d", a.FreshnessMS, maxFreshnessMS)
	}
	return nil
}

// Risk is how much a commit stakes on the page being the one it was planned on.
type Risk string

// Risks. A low-risk commit is re-checked for its principal, route, target and form; a
// high-risk one also for its relevant text and the page's version.
const (
	RiskLow  Risk = "low"
	RiskHigh Risk = "high"
)

// Fingerprint is what one observation says about the state an action is justified by: the
// route, the principal, the target's key, a hash of the task's relevant text, the page's
// version, the dialog and form, and when it was observed. Hash condenses all of it.
type Fingerprint struct {
	// Route is the page's address without its fragment.
	Route     string `json:"route"`
	Principal string `json:"principal,omitempty"`
	// Target is the target's key: its locator as plans show it (role[name], test_id "x").
	Target string `json:"target,omitempty"`
	// Relevant hashes the task's relevant text, fact by fact; empty when the task declares none.
	Relevant string `json:"relevant,omitempty"`
	Version  string `json:"version,omitempty"`
	Dialog   bool   `json:"dialog,omitempty"`
	// Form hashes the form's values.
	Form string `json:"form"`
	// AtMS is when the observation was taken, in milliseconds since the attempt started.
	AtMS int64  `json:"at_ms"`
	Hash string `json:"hash"`
}
