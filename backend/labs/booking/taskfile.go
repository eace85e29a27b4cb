package booking

import _ "embed" // for the task file

// TaskFile is the lab's own task written as a task file: task.yaml beside this code, built
// into the binary so that `observatory run --lab booking --task-file` runs it from anywhere.
//
//go:embed task.yaml
var TaskFile []byte
