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
