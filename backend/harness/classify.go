package harness

import (
	"regexp"

	"observatory/backend/agent"
)

// commitWords are control names that commit an external effect. The list is broad on purpose:
// a false positive costs one revalidation, a false negative can post or pay without one.
var commitWords = regexp.MustCompile(`(?i)\b(save|submit|send|post|publish|buy|pay|purchase|order|book|reserve|confirm|delete|remove|revoke|upload|transfer)\b`)

// submitChord matches a key chord that submits from a text field: Control or Meta with Enter.
var submitChord = regexp.MustCompile(`(?i)\b(control|ctrl|meta|cmd|command)\+enter$`)

// Classify says what an action can do to the world before it runs: verify, wait_for and
// hover only observe; a submit commits, as does a click whose control's name says so and a
// Control/Meta+Enter chord; everything else prepares (opens, fills, selects, navigates)
// without an external effect.
func Classify(a agent.Action) agent.ActionClass {
	switch {
	case a.Kind == agent.ActVerify, a.Kind == agent.ActWaitFor, a.Kind == agent.ActHover:
		return agent.ClassObserve
	case a.Kind == agent.ActSubmit:
		return agent.ClassCommit
	case a.Kind == agent.ActClick && commitWords.MatchString(a.Target.TextOf()):
		return agent.ClassCommit
	case a.Kind == agent.ActPress && submitChord.MatchString(a.Value):
		return agent.ClassCommit
	}
	return agent.ClassPrepare
}
