package app

import "observatory/backend/taskfile"

// TaskFiles is what the open dialog for task files offers.
var TaskFiles = FileFilter{DisplayName: "Task files (*.yaml, *.yml, *.json)", Pattern: "*.yaml;*.yml;*.json"}

// OpenDialog asks for a task file in the desktop's native dialog, checks it and remembers
// it among the recent tasks by its path (read again each time, so its relative paths keep
// their folder); an empty Ref means the user cancelled. A refused file is not remembered.
func (t *Tasks) OpenDialog() (TaskInfo, error) {
	if t.dialogs == nil {
		return TaskInfo{}, ErrNoDialogs
	}
	path, err := t.dialogs.OpenFile("Open a task file", TaskFiles)
	if err != nil || path == "" {
		return TaskInfo{}, err
	}
	trust, err := t.trust()
	if err != nil {
		return TaskInfo{}, err
	}
	src, err := LoadTaskFile(path, taskfile.Options{Trust: trust})
	if err != nil {
		return TaskInfo{}, err
	}
	ref, err := t.recent.addPath(path)
	if err != nil {
		return TaskInfo{}, err
	}
	task, err := t.recent.get(ref)
	if err != nil {
		return TaskInfo{}, err
	}
	info := describe(ref, src)
	info.File, info.Path = task.Name, task.Path
	return info, nil
}
