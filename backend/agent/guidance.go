package agent

// Guide is a Policy that comments on a call's result when the planner keeps repeating it,
// so a planner that reads its history learns to change course. It never blocks anything.
type Guide interface {
	// Guidance is what to tell the planner about s, given the steps before it; "" for nothing.
	Guidance(history []Step, s Step) string
}
