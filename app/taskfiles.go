package app

import (
	"encoding/json"
	"errors"

	"observatory/backend/agent"
)

// suiteFromSpec rebuilds the suite of a recorded task document.
func suiteFromSpec(json.RawMessage) (agent.Suite, error) {
	return nil, errors.New("task documents cannot be judged yet")
}

// LoadTaskFile reads and checks the task file at path.
func LoadTaskFile(path string) (TaskSource, error) {
	return TaskSource{}, errors.New("task files cannot be read yet: " + path)
}

// ParseTaskFile checks the text of a task file; name is its file name, for messages.
func ParseTaskFile(name string, text []byte) (TaskSource, error) {
	return TaskSource{}, errors.New("task files cannot be read yet: " + name)
}
