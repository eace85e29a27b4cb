package outside

import (
	"errors"
	"os/exec"
)

// asUser is not offered on Windows: run the agent with runas, or in a container.
func asUser(*exec.Cmd, string, ...string) error {
	return errors.New("running the agent as another user is not offered on Windows: start it with runas in its command, or in a container")
}
