package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/taskfile"
)

// TaskInfo describes a task for the UI: its intent, plan and attempts, and the columns its
// verdicts fill (the ground truth, each signal and each gate condition, by ID and label).
type TaskInfo struct {
	// Ref names the task in a StartRequest ("lab:booking", "file:3fa9…").
	Ref string `json:"ref"`
	// File is the task file's name, for tasks opened from a file.
	File string `json:"file,omitempty"`
	// Path is where the task file is, for one picked in the desktop's dialog.
	Path string `json:"path,omitempty"`
	// Missing says why a remembered task file cannot be opened now (moved or deleted, or no
	// longer a valid task); the task is then listed, but cannot run until it is opened again.
	Missing  string              `json:"missing,omitempty"`
	Task     agent.Task          `json:"task"`
	Plan     agent.Plan          `json:"plan"`
	Attempts []agent.AttemptSpec `json:"attempts"`
	Columns  agent.Verdicts      `json:"columns"`
	// Env are the environment variables a task file reads, and whether the user allowed each:
	// the window asks before a run for those not allowed.
	Env []taskfile.EnvVar `json:"env,omitempty"`
}

// Tasks lists the tasks the window can run: the labs' built-in ones and the task files opened
// here, which it remembers (see recentTasks).
type Tasks struct {
	settings *Settings
	recent   *recentTasks
	// dialogs are the desktop's native file dialogs; nil outside it.
	dialogs Dialogs
}

// List lists the tasks there are to run: the labs' built-in tasks, then the task files
// opened here, newest first. A remembered file that no longer reads is listed as missing.
func (t *Tasks) List() ([]TaskInfo, error) {
	var out []TaskInfo
	for _, name := range labs.Names() {
		src, err := LabTask(name)
		if err != nil {
			return nil, err
		}
		out = append(out, describe(labPrefix+name, src))
	}
	recent, err := t.recent.list()
	if err != nil {
		return nil, err
	}
	for _, task := range recent {
		info := TaskInfo{Ref: task.Ref, File: task.Name, Path: task.Path, Task: agent.Task{Name: task.Name}}
		if src, err := t.sourceOf(task); err != nil {
			info.Missing = err.Error()
		} else {
			info = describe(task.Ref, src)
			info.File, info.Path = task.Name, task.Path
		}
		out = append(out, info)
	}
	return out, nil
}

// Load checks the text of a task file (name is its file name, for messages) and
// remembers it among the recent tasks. The UI reads the file itself, by a file picker or a
// drop, so no path ever comes from it.
func (t *Tasks) Load(name, content string) (TaskInfo, error) {
	trust, err := t.trust()
	if err != nil {
		return TaskInfo{}, err
	}
	src, err := ParseTaskFile(name, []byte(content), taskfile.Options{Trust: trust})
	if err != nil {
		return TaskInfo{}, err
	}
	ref, err := t.recent.add(name, []byte(content))
	if err != nil {
		return TaskInfo{}, err
	}
	info := describe(ref, src)
	info.File = filepath.Base(name)
	return info, nil
}

// Forget removes an opened task file from the recent tasks.
func (t *Tasks) Forget(ref string) error {
	if !validRef(ref) {
		return fmt.Errorf("%q is not an opened task file", ref)
	}
	return t.recent.forget(ref)
}

// describe is the TaskInfo of src, its columns labelled by judging no evidence at all.
func describe(ref string, src TaskSource) TaskInfo {
	s := src.Suite
	cols, _ := s.Judge(agent.Evidence{})
	info := TaskInfo{Ref: ref, Task: s.Task(), Plan: s.Plan(), Attempts: s.Attempts(), Columns: cols}
	if t, ok := s.(taskfile.Suite); ok {
		info.Env = t.Outline().Env
	}
	return info
}

// source finds the task a reference names: a lab's, or a task file opened here, which may
// also read the environment variables allowEnv names.
func (t *Tasks) source(ref string, allowEnv []string) (TaskSource, error) {
	if !strings.HasPrefix(ref, filePrefix) {
		return LabTask(ref)
	}
	task, err := t.recent.get(ref)
	if err != nil {
		return TaskSource{}, err
	}
	return t.sourceOf(task, allowEnv...)
}

// sourceOf reads a remembered task file: from its path, or its kept text. It may also read
// the environment variables allowEnv names.
func (t *Tasks) sourceOf(task recentTask, allowEnv ...string) (TaskSource, error) {
	trust, err := t.trust()
	if err != nil {
		return TaskSource{}, err
	}
	trust.Env = append(trust.Env, allowEnv...)
	if task.Path != "" {
		if _, err := os.Stat(task.Path); errors.Is(err, fs.ErrNotExist) {
			return TaskSource{}, fmt.Errorf("%s is missing: it was moved or deleted since it was opened", task.Path)
		}
		return LoadTaskFile(task.Path, taskfile.Options{Trust: trust})
	}
	text, err := t.recent.text(task.Ref)
	if err != nil {
		return TaskSource{}, err
	}
	return ParseTaskFile(task.Name, text, taskfile.Options{Trust: trust})
}

// trust is what the user's settings let task files opened here reach.
func (t *Tasks) trust() (taskfile.Trust, error) {
	set, err := t.settings.Get()
	if err != nil {
		return taskfile.Trust{}, err
	}
	return set.Trust(taskfile.Trust{}), nil
}
