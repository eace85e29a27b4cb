package app

import (
	"encoding/json"
	"path"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/taskfile"
)

// LoadTaskFile reads and checks the task file at path; relative paths in it are relative to
// its folder.
func LoadTaskFile(path string) (TaskSource, error) {
	s, err := taskfile.Load(path, taskfile.Options{})
	if err != nil {
		return TaskSource{}, err
	}
	return TaskFileSource(s), nil
}

// LabTaskFile reads the task file the lab called name ships as its own task (see
// labs.TaskFile): built into the binary, so it runs from any folder.
func LabTaskFile(name string) (TaskSource, error) {
	data, err := labs.TaskFile(name)
	if err != nil {
		return TaskSource{}, err
	}
	s, err := taskfile.Parse(path.Join("backend", "labs", name, "task.yaml"), data, "", taskfile.Options{})
	if err != nil {
		return TaskSource{}, err
	}
	return TaskFileSource(s), nil
}

// ParseTaskFile checks the text of a task file; name is its file name, for messages. It has
// no folder, so relative paths in it are relative to the working directory.
func ParseTaskFile(name string, text []byte) (TaskSource, error) {
	s, err := taskfile.Parse(name, text, "", taskfile.Options{})
	if err != nil {
		return TaskSource{}, err
	}
	return TaskFileSource(s), nil
}

// suiteFromSpec rebuilds the suite of a recorded task document, for judging only.
func suiteFromSpec(spec json.RawMessage) (agent.Suite, error) {
	return taskfile.FromSpec(spec)
}

// TaskFileSource runs s with its own planner, whose values come from the environment where
// the task file says so (the plan shows them masked); a run records its document.
func TaskFileSource(s taskfile.Suite) TaskSource {
	return TaskSource{Suite: s, Spec: s.Spec(), Planner: s.Planner}
}
