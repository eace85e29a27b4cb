package hostile

import (
	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// environment is one instance of the page as an attempt of the lab's own task runs against
// it: its origin alone (the mirror's is not the task's), and its own folders.
type environment struct {
	labkit.Environment
	folders *Folders
}

var _ agent.Folders = environment{}

// newEnvironment is the plain environment of an instance, with its folders.
func newEnvironment(in *Instance, plain labkit.Environment) agent.Environment {
	return environment{plain, in.folders}
}

func (e environment) Uploads() string   { return e.folders.Uploads }
func (e environment) Downloads() string { return e.folders.Downloads }
