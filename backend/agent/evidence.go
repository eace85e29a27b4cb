package agent

import "fmt"

// EvidenceLevel is how much of each step an attempt records.
type EvidenceLevel string

// Evidence levels. Full keeps every step's before and after sample with its screenshot (and
// DOM snapshot when asked). Lean keeps what the harness decides on and what the verdicts are
// re-judged from on import (every sample, the gate's evidence, each commit's re-check, the
// actions and their results, network and console) but a screenshot only where something went
// wrong: a failed or held step, and the attempt's last look; and no video. "" is full.
const (
	EvidenceFull EvidenceLevel = "full"
	EvidenceLean EvidenceLevel = "lean"
)

// EvidenceFirstTrial is a run's choice, never an attempt's level: each attempt's first trial
// records full evidence and its later trials (see Trials) lean, so a run of many trials keeps
// one fully pictured trial of each attempt at little more than lean's cost.
const EvidenceFirstTrial EvidenceLevel = "first-trial"

// ParseEvidence reads an evidence level as a flag or a file gives it; "" is full.
func ParseEvidence(s string) (EvidenceLevel, error) {
	switch EvidenceLevel(s) {
	case "", EvidenceFull:
		return EvidenceFull, nil
	case EvidenceLean:
		return EvidenceLean, nil
	}
	return "", fmt.Errorf("evidence level %q: want full or lean", s)
}

// ParseEvidenceChoice reads what a run records as a flag gives it: an evidence level, or
// EvidenceFirstTrial; "" is full.
func ParseEvidenceChoice(s string) (EvidenceLevel, error) {
	if EvidenceLevel(s) == EvidenceFirstTrial {
		return EvidenceFirstTrial, nil
	}
	if l, err := ParseEvidence(s); err == nil {
		return l, nil
	}
	return "", fmt.Errorf("evidence %q: want full, lean or first-trial", s)
}

// ForTrial is what trial (1-based; 0 for an attempt run once) of an attempt records: the
// run's media, its evidence resolved to the trial's level.
func (m Media) ForTrial(trial int) Media {
	if m.Evidence == EvidenceFirstTrial {
		m.Evidence = EvidenceFull
		if trial > 1 {
			m.Evidence = EvidenceLean
		}
	}
	return m
}
