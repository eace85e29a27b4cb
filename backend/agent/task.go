package agent

// Task is the user's intent: what the attempt must bring about, in the app's own terms.
type Task struct {
	// Title is the reservation title the user asked for.
	Title string `json:"title"`
	// Room is the room value the user asked for (for example "north").
	Room string `json:"room"`
}

// ActionKind says what an action does to the page.
type ActionKind string

// The kinds of action the executor can carry out.
const (
	ActClick  ActionKind = "click"
	ActFill   ActionKind = "fill"
	ActSelect ActionKind = "select"
	ActSubmit ActionKind = "submit"
	// ActVerify touches nothing: it waits on the completion gate under the wait policy.
	ActVerify ActionKind = "verify"
)

// Target names one control by its ARIA role and accessible name. It must resolve to exactly
// one element on the page.
type Target struct {
	Role string `json:"role"`
	Name string `json:"name"`
	// Alias is the one declared alternate name the alias selector policy may try when Name
	// matches nothing. Empty when the control has none.
	Alias string `json:"alias,omitempty"`
}

// String renders the target as role[name], the way plans show it.
func (t Target) String() string {
	if t.Role == "" {
		return ""
	}
	return t.Role + "[" + t.Name + "]"
}

// Action is one planned step: the planner's proposal, before policy has looked at it.
type Action struct {
	// ID is stable within a plan ("open-dialog").
	ID string `json:"id"`
	// Description is the human sentence for the step; Parallax's rule reads it.
	Description string     `json:"description"`
	Kind        ActionKind `json:"kind"`
	Target      Target     `json:"target"`
	// Value is typed or selected; empty for clicks.
	Value string `json:"value,omitempty"`
}

// Plan is an ordered list of actions.
type Plan []Action
