package hostile

import (
	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// environment is one instance of the page as an attempt of the lab's own task runs against
// it: its origin alone (the mirror's is not the task's), and its own folders.
type environment struct {
	labkit.Environment
	in *Instance
}

var (
	_ agent.Environment = environment{}
	_ agent.Folders     = environment{}
)

func newEnvironment(in *Instance) environment {
	return environment{Environment: labkit.Environment{Instance: in, Gate: in.Check}, in: in}
}

func (e environment) Uploads() string   { return e.in.folders.Uploads }
func (e environment) Downloads() string { return e.in.folders.Downloads }
