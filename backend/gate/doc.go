// Package gate evaluates whether an attempt is done. The completion gate itself is a list of
// conditions a lab writes for its task (see agent.NewGate); this package holds the checks that
// do not depend on any lab: the naive success-notice check and Parallax's completion rule,
// ported so that both can be compared with the gate on the same recorded steps.
package gate
