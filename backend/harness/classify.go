package harness

import (
	"regexp"

	"observatory/backend/agent"
)

// commitWords are control names that commit an external effect. The list is broad on purpose:
// a false positive costs one revalidation, a false negative can post or pay without one.
var commitWords = regexp.MustCompile(`(?i)\b(save|submit|send|post|publish|buy|pay|purchase|order|book|reserve|confirm|delete|remove|revoke|upload|transfer)\b`)

// Classify says what an action can do to the world before it runs: verify only observes,
// a submit commits, a click commits when its control's name says so, and everything else
// prepares (opens, fills, selects) without leaving the page.
func Classify(a agent.Action) agent.ActionClass {
	switch {
	case a.Kind == agent.ActVerify:
		return agent.ClassObserve
	case a.Kind == agent.ActSubmit:
		return agent.ClassCommit
	case a.Kind == agent.ActClick && commitWords.MatchString(a.Target.Name):
		return agent.ClassCommit
	}
	return agent.ClassPrepare
}
