package app

import (
	"encoding/json"
	"path"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/taskfile"
)

// LoadTaskFile reads and checks the task file at path; relative paths in it are relative to
// its folder. opts say what the user lets it reach beyond that folder and its origins
// (Trust), and how they are asked (Confirm); a task may name any built-in lab unless opts.Labs
// says otherwise.
func LoadTaskFile(path string, opts taskfile.Options) (TaskSource, error) {
	s, err := taskfile.Load(path, withLabs(opts))
	if err != nil {
		return TaskSource{}, err
	}
	return TaskFileSource(s), nil
}

// LabTaskFile reads the task file the lab called name ships as its own task (see
// labs.TaskFile): built into the binary, so it runs from any folder. It lives in no folder
// and is trusted with nothing: it names no file and reads no environment variable.
func LabTaskFile(name string) (TaskSource, error) {
	data, err := labs.TaskFile(name)
	if err != nil {
		return TaskSource{}, err
	}
	s, err := taskfile.Parse(path.Join("backend", "labs", name, "task.yaml"), data, "", taskfile.Options{Labs: labs.ForTaskFiles})
	if err != nil {
		return TaskSource{}, err
	}
	return TaskFileSource(s), nil
}

// ParseTaskFile checks the text of a task file; name is its file name, for messages. It has
// no folder, so the paths it names must lie in folders opts.Trust allows (relative ones start
// from the working directory). A task may name any built-in lab unless opts.Labs says otherwise.
func ParseTaskFile(name string, text []byte, opts taskfile.Options) (TaskSource, error) {
	s, err := taskfile.Parse(name, text, "", withLabs(opts))
	if err != nil {
		return TaskSource{}, err
	}
	return TaskFileSource(s), nil
}

// suiteFromSpec rebuilds the suite of a recorded task document, for judging only.
func suiteFromSpec(spec json.RawMessage) (agent.Suite, error) {
	return taskfile.FromSpec(spec, labs.ForTaskFiles)
}

// withLabs gives a task file the built-in labs to name, unless opts name a registry already:
// taskfile knows no lab of its own.
func withLabs(opts taskfile.Options) taskfile.Options {
	if opts.Labs == nil {
		opts.Labs = labs.ForTaskFiles
	}
	return opts
}

// TaskFileSource runs s with its own planner, whose values come from the environment where
// the task file says so (the plan shows them masked); a run records its document.
func TaskFileSource(s taskfile.Suite) TaskSource {
	return TaskSource{Suite: s, Spec: s.Spec(), Planner: s.Planner}
}
