package app

import "observatory/backend/taskfile"

// TaskFiles is what the open dialog for task files offers.
var TaskFiles = FileFilter{DisplayName: "Task files (*.yaml, *.yml, *.json)", Pattern: "*.yaml;*.yml;*.json"}

// OpenTaskDialog asks for a task file in the desktop's native dialog, checks it and remembers
// it among the recent tasks by its path (read again each time, so its relative paths keep
// their folder); an empty Ref means the user cancelled. A refused file is not remembered.
func (r *Runs) OpenTaskDialog() (TaskInfo, error) {
	if r.dialogs == nil {
		return TaskInfo{}, ErrNoDialogs
	}
	path, err := r.dialogs.OpenFile("Open a task file", TaskFiles)
	if err != nil || path == "" {
		return TaskInfo{}, err
	}
	trust, err := r.trust()
	if err != nil {
		return TaskInfo{}, err
	}
	src, err := LoadTaskFile(path, taskfile.Options{Trust: trust})
	if err != nil {
		return TaskInfo{}, err
	}
	ref, err := r.recent.addPath(path)
	if err != nil {
		return TaskInfo{}, err
	}
	t, err := r.recent.get(ref)
	if err != nil {
		return TaskInfo{}, err
	}
	info := describe(ref, src)
	info.File, info.Path = t.Name, t.Path
	return info, nil
}
