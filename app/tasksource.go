package app

import (
	"encoding/json"
	"fmt"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/labs"
)

// TaskSource is a task ready to run: its suite, and the task document recorded with each of
// its runs (nil for a lab's built-in task, which is found by name).
type TaskSource struct {
	Suite agent.Suite
	Spec  json.RawMessage
	// Planner is the task's own scripted planner of an attempt; nil follows Suite.Plan.
	Planner func(agent.AttemptSpec) agent.Planner
}

// labPrefix marks a task reference that names a built-in lab ("lab:booking").
const labPrefix = "lab:"

// LabTask returns the built-in task of the lab called name.
func LabTask(name string) (TaskSource, error) {
	l, err := labs.Get(strings.TrimPrefix(name, labPrefix))
	if err != nil {
		return TaskSource{}, err
	}
	return TaskSource{Suite: l}, nil
}

// Resolve finds the suite that judges a recorded run: from the task document it carries, or
// a built-in lab by name. Import, verify and replay all judge through it.
func Resolve(task string, spec json.RawMessage) (agent.Suite, error) {
	if len(spec) == 0 {
		l, err := labs.Get(task)
		if err != nil {
			return nil, fmt.Errorf("the run names no task document, and %w", err)
		}
		return l, nil
	}
	return suiteFromSpec(spec)
}
