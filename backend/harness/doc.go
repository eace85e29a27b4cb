// Package harness decides, before anything touches the page, what a proposed action may do:
// it classifies the action by its contract and effect, admits it against the budget and, for
// commits, re-checks that the page still matches the state the decision was grounded on,
// comparing fingerprints by the commit's risk and holding any commit across a change of the
// signed-in account (and the executor re-checks once more with the pointer on the control); it
// holds an irreversible call that already succeeded on the page, has irreversible actions
// reviewed (CEL rules or a model) and approved when the task says so, settles ambiguous
// commits by reconciliation, and guides a planner that repeats itself. Off is the same
// executor without any of it: the naive column.
package harness
