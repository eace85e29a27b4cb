package agent

// ActionClass is what an action can do to the world, decided before it runs.
type ActionClass string

// Action classes, from harmless to consequential.
const (
	ClassObserve ActionClass = "observe" // reads only
	ClassPrepare ActionClass = "prepare" // opens, fills or selects; nothing leaves the page
	ClassCommit  ActionClass = "commit"  // submits, sends, pays: an external effect
)

// Admission is what policy decided about a proposed action.
type Admission string

// Admissions.
const (
	Allow Admission = "allow"
	Hold  Admission = "hold"
	Deny  Admission = "deny"
)

// Decision is the harness's record of why a proposal was allowed, held or denied. It is kept
// apart from the proposal (the Action) and from what the page showed (the Samples).
type Decision struct {
	Class     ActionClass `json:"class"`
	Admission Admission   `json:"admission"`
	Reason    string      `json:"reason"`
	// Fingerprint is the state the decision was grounded on; for commits it is re-checked
	// against a fresh observation immediately before acting.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Observed is the fingerprint of the observation the decision was taken on, part by
	// part; its Hash is Fingerprint.
	Observed *Fingerprint `json:"observed,omitempty"`
	// Risk is how much a commit stakes on the page being unchanged; empty for other classes.
	Risk Risk `json:"risk,omitempty"`
	// Contract is what the action promises about its effect, and Why says what decided it
	// (the tool, or the word in the control's name).
	Contract Contract `json:"contract,omitempty"`
	Why      string   `json:"why,omitempty"`
	// Key identifies the call: tool, arguments and page, so the same action on a different
	// page is a different call. Admission counts repeats by it.
	Key string `json:"key,omitempty"`
	// Continue marks a hold that does not end the attempt: what it holds back has already
	// happened (an irreversible action that already succeeded on this page).
	Continue bool `json:"continue,omitempty"`
	// Review is the reviewer's judgement of an irreversible action, when review is on.
	Review *Review `json:"review,omitempty"`
	// AskUser means the action may run only once the user approves it, immediately before it
	// runs (see Approver).
	AskUser bool `json:"ask_user,omitempty"`
	// RefusedByPage is why the page would refuse an action that needs approval (see
	// Preflighter): such an action is held before anyone is asked, and metrics count it as a
	// policy denial, not as a commit stopped by a changed page. Empty otherwise.
	RefusedByPage string `json:"refused_by_page,omitempty"`
}

// WhyInjection is the Why of a decision that holds an action because the page's text tried
// to instruct the agent: metrics count these as injection stops.
const WhyInjection = "the page's text instructs the agent (a prompt injection)"
