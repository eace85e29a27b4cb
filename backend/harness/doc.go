// Package harness decides, before anything touches the page, what a proposed action may do:
// it classifies the action by its effect, admits it against the budget, and for commits
// re-checks that the page still matches the state the decision was grounded on.
package harness
