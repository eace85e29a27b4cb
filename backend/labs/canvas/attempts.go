package canvas

import "observatory/backend/agent"

// Labels of the page's controls.
const (
	ToggleLabel = "Accessible mode"
	MoveLabel   = "Move"
)

// deadlineMS is how long a verify waits for the move: the move is answered at once, so a
// move still missing after it never came.
const deadlineMS = 2000

// plan is the text route: press the accessible-mode toggle, name the move by its squares,
// make it, verify.
func plan() agent.Plan {
	return agent.Plan{
		{ID: "accessible-mode", Description: "Switch on accessible mode", Kind: agent.ActClick,
			Target: agent.Target{Role: "button", Name: ToggleLabel}},
		{ID: "fill-from", Description: "Name the knight's square", Kind: agent.ActFill,
			Target: agent.Target{Role: "textbox", Name: "From"}, Value: From},
		{ID: "fill-to", Description: "Name the target square", Kind: agent.ActFill,
			Target: agent.Target{Role: "textbox", Name: "To"}, Value: To},
		{ID: "move", Description: "Make the move", Kind: agent.ActClick,
			Target: agent.Target{Role: "button", Name: MoveLabel}},
		verify(),
	}
}

// attempts are the lab's scripted attempts: a blind click on the board, and the text route
// through a toggle placed off-screen or clipped to one pixel.
func attempts() []agent.AttemptSpec {
	blind := agent.Plan{
		{ID: "click-board", Description: "Click the board to move the knight", Kind: agent.ActClick,
			Target: agent.Target{TestID: "board"}},
		verify(),
	}
	return []agent.AttemptSpec{
		attempt("clicks-the-board", "A blind click on the drawn board", FaultNone, blind),
		attempt("toggle-offscreen", "The accessible-mode toggle lies off-screen", FaultNone, nil),
		attempt("toggle-clipped", "The accessible-mode toggle is clipped to one pixel", FaultClippedToggle, nil),
	}
}

func verify() agent.Action {
	return agent.Action{ID: "verify", Description: "Verify the knight stands on " + To, Kind: agent.ActVerify}
}

// attempt builds one AttemptSpec from the default configuration with the lab's deadline.
func attempt(slug, title, fault string, plan agent.Plan) agent.AttemptSpec {
	c := agent.DefaultConfig()
	c.DeadlineMS = deadlineMS
	return agent.AttemptSpec{Slug: slug, Title: title, Fault: fault, Config: c, Plan: plan}
}
