package harness

import (
	"fmt"
	"regexp"

	"observatory/backend/agent"
)

// irreversibleWords are control names whose action has an effect outside the page that
// cannot be taken back. The list is broad on purpose: a false positive costs a revalidation
// (or a question to the user), a false negative can post or pay without one.
var irreversibleWords = regexp.MustCompile(`(?i)\b(save|submit|send|resend|retry|reply|forward|post|publish|share|tweet|buy|pay|purchase|order|checkout|check out|donate|transfer|withdraw|book|reserve|confirm|approve|sign|accept|agree|place|deploy|merge|invite|upload|delete|remove|revoke|erase|destroy|wipe|deactivate|unsubscribe)\b`)

// destructWords are the irreversible words that destroy rather than create.
var destructWords = regexp.MustCompile(`(?i)\b(delete|remove|revoke|erase|destroy|wipe|deactivate|unsubscribe)\b`)

// submitChord matches a key chord that sends from a text field: Control or Meta with Enter.
var submitChord = regexp.MustCompile(`(?i)\b(control|ctrl|meta|cmd|command)\+enter$`)

// Classification is what Classify says about an action: its contract, its state-aware class,
// and why.
type Classification struct {
	Contract agent.Contract
	Class    agent.ActionClass
	Why      string
}

// Classify says what an action can do to the world before it runs. Some tools are fixed:
// verify is control, hover and wait_for read, navigate navigates, download only saves a
// file, submit and upload are irreversible. A click or key is judged by what it touches: a tab only navigates; a control
// named with an irreversible word (Send, Post, Pay, Delete, Confirm…) is irreversible, as is
// Control/Meta+Enter (plain Enter is not); anything else mutates the page.
func Classify(a agent.Action) Classification {
	name := a.Target.TextOf()
	switch {
	case a.Kind == agent.ActVerify:
		return classified(agent.ContractControl, "verify waits on the completion gate and touches nothing")
	case a.Kind == agent.ActHover, a.Kind == agent.ActWaitFor:
		return classified(agent.ContractRead, fmt.Sprintf("%s only looks at the page", a.Kind))
	case a.Kind == agent.ActNavigate:
		return classified(agent.ContractNavigate, "navigate loads another address")
	case a.Kind == agent.ActUpload:
		return irreversible(name, "uploading sends a file off the page")
	case a.Kind == agent.ActDownload:
		return classified(agent.ContractMutate, "download saves a file into the task's downloads folder; nothing leaves the page")
	case a.Kind == agent.ActSubmit:
		return irreversible(name, "submit sends the form")
	case a.Kind == agent.ActClick && a.Target.Role == "tab":
		return classified(agent.ContractNavigate, fmt.Sprintf("a click on tab %q only shows another panel", name))
	case a.Kind == agent.ActClick && irreversibleWords.MatchString(name):
		return irreversible(name, fmt.Sprintf("the control's name %q has the irreversible word %q", name, irreversibleWords.FindString(name)))
	case a.Kind == agent.ActClick && a.Target.Role == "link":
		return classified(agent.ContractNavigate, fmt.Sprintf("a click on link %q follows it", name))
	case a.Kind == agent.ActPress && submitChord.MatchString(a.Value):
		return irreversible(name, fmt.Sprintf("%s sends from a text field", a.Value))
	}
	return classified(agent.ContractMutate, fmt.Sprintf("%s changes only the page", a.Kind))
}

// classified is a classification of a contract other than irreversible, with its class.
func classified(c agent.Contract, why string) Classification {
	class := agent.ClassPrepare
	switch c {
	case agent.ContractRead, agent.ContractControl:
		class = agent.ClassObserve
	case agent.ContractNavigate:
		class = agent.ClassExplore
	}
	return Classification{Contract: c, Class: class, Why: why}
}

// irreversible is an irreversible classification: a destruct when the control's name says it
// destroys, else a commit.
func irreversible(name, why string) Classification {
	class := agent.ClassCommit
	if destructWords.MatchString(name) {
		class = agent.ClassDestruct
	}
	return Classification{Contract: agent.ContractIrreversible, Class: class, Why: why}
}
