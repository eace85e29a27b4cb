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

// Classification is what Classify says about an action: its contract, its state-aware class,
// and why.
type Classification struct {
	Contract agent.Contract
	Class    agent.ActionClass
	Why      string
	// Control is the name of the control the action sets off: its target's, or for a key
	// press the control the key activates; "" when there is none.
	Control string
}

// Classify says what an action can do to the world before it runs, on the page it would run
// on (whose focus a key pressed without a target goes to). Some tools are fixed: verify is
// control, hover and wait_for read, navigate navigates, download only saves a file, submit
// and upload are irreversible; an agent's driver's resize, drag and dialog answer mutate (but
// accepting a dialog whose message has an irreversible word is irreversible, as clicking
// such a control is), and its tab moves navigate. A click is judged by what it touches: a tab only navigates; a
// control named with an irreversible word (Send, Post, Pay, Delete, Confirm…) is
// irreversible; anything else mutates the page. A key press is judged by what it would
// activate (see classifyKey). It is a pure function of the action and the page, so a
// recorded classification can be recomputed.
func Classify(a agent.Action, on agent.Sample) Classification {
	if a.Kind == agent.ActPress {
		return classifyKey(a, on.Focus)
	}
	if d := on.JSDialog; a.Kind == agent.ActDialogAccept && d != nil && irreversibleWords.MatchString(d.Message) {
		why := fmt.Sprintf("accepting the %s dialog confirms %q, which has the irreversible word %q", d.Type, d.Message, irreversibleWords.FindString(d.Message))
		return irreversible(d.Message, why).on(d.Message)
	}
	name := a.Target.TextOf()
	return byTool(a, name).on(name)
}

// byTool classifies an action other than a key press by its tool and its target's name.
func byTool(a agent.Action, name string) Classification {
	switch {
	case a.Kind == agent.ActVerify:
		return classified(agent.ContractControl, "verify waits on the completion gate and touches nothing")
	case a.Kind == agent.ActHover, a.Kind == agent.ActWaitFor:
		return classified(agent.ContractRead, fmt.Sprintf("%s only looks at the page", a.Kind))
	case a.Kind == agent.ActNavigate:
		return classified(agent.ContractNavigate, "navigate loads another address")
	case a.Kind == agent.ActUpload:
		return irreversible(name, "uploading sends a file off the page")
	case a.Kind == agent.ActEvaluate:
		return classified(agent.ContractMutate, "an agent's own script can change anything on the page")
	case a.Kind == agent.ActResize:
		return classified(agent.ContractMutate, "resize changes only the page's layout")
	case a.Kind == agent.ActTabNew, a.Kind == agent.ActTabSelect:
		return classified(agent.ContractNavigate, fmt.Sprintf("%s only turns to another tab", a.Kind))
	case a.Kind == agent.ActTabClose, a.Kind == agent.ActClose:
		return classified(agent.ContractNavigate, fmt.Sprintf("%s leaves the page, aborting what it still has in flight", a.Kind))
	case a.Kind == agent.ActDialogAccept, a.Kind == agent.ActDialogDismiss:
		return classified(agent.ContractMutate, "answering the page's dialog lets its script go on")
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

// on is c as the action's effect on the control named name.
func (c Classification) on(name string) Classification {
	c.Control = name
	return c
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
