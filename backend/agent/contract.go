package agent

// Contract is what an action promises about its effect, decided before it runs: the harness
// holds irreversible actions to stricter rules than the rest.
type Contract string

// Contracts.
const (
	ContractRead         Contract = "read"         // looks, changes nothing
	ContractNavigate     Contract = "navigate"     // goes somewhere else: a URL, a link, a tab
	ContractMutate       Contract = "mutate"       // changes the page's own state: fills, selects
	ContractIrreversible Contract = "irreversible" // an effect outside the page that cannot be taken back
	ContractControl      Contract = "control"      // governs the attempt itself: verify waits on the gate
)

// The state-aware classes beside ClassObserve, ClassPrepare and ClassCommit.
const (
	ClassExplore  ActionClass = "explore"  // navigates; nothing leaves the page
	ClassDestruct ActionClass = "destruct" // deletes or revokes: a commit that destroys
)

// Commits reports whether an action of class c has an external effect (a commit or a
// destruct): a failure while it runs may have crossed the commit boundary.
func (c ActionClass) Commits() bool { return c == ClassCommit || c == ClassDestruct }
