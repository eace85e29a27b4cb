package suitefile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/taskfile"
)

// MaxTasks is the most task files one suite may hold.
const MaxTasks = 500

// Suite is a suite file read and checked: its task files loaded.
type Suite struct {
	Name string
	// Repeat is how many trials of each attempt to run, at least 1.
	Repeat int
	Tasks  []Task
	// AttemptBudgets bound every attempt in place of its task's; nil for the tasks' own.
	AttemptBudgets *agent.Budgets
	// RunBudgets bound each task's run; zero for the tasks' own.
	RunBudgets agent.Budgets
}

// Task is one task file of a suite and the attempts of it to run (empty: all).
type Task struct {
	Path     string
	Task     taskfile.Suite
	Attempts []string
}

// IsSuite reports whether path is a suite: a folder, or a file whose schema is Schema.
func IsSuite(path string) bool {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return true
	}
	data, err := readFile(path)
	return err == nil && taskfile.SchemaOf(path, data) == Schema
}

// Load reads the suite at path: a suite file, or a folder, whose task files (*.yaml, *.yml
// and *.json, in name order; suite files among them aside) are a suite named after it. A task file that does not load,
// or an attempt a task does not have, is an error naming it. Each task file loads with opts,
// under the user's allowances (see taskfile.Trust): a suite widens nothing.
func Load(path string, opts taskfile.Options) (*Suite, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &taskfile.Error{File: path, Reason: err.Error()}
	}
	if fi.IsDir() {
		return folder(path, opts)
	}
	data, err := readFile(path)
	if err != nil {
		return nil, &taskfile.Error{File: path, Reason: err.Error()}
	}
	return Parse(path, data, filepath.Dir(path), opts)
}

// Parse checks a suite file's contents; name is the file's name (for messages, and its
// extension picks JSON or YAML) and dir the folder its task files are found in.
func Parse(name string, data []byte, dir string, opts taskfile.Options) (*Suite, error) {
	var doc Document
	if err := taskfile.DecodeDocument(name, data, &doc); err != nil {
		return nil, err
	}
	refuse := func(path, format string, args ...any) error {
		return &taskfile.Error{File: name, Path: path, Reason: fmt.Sprintf(format, args...)}
	}
	if doc.Schema != Schema {
		return nil, refuse("schema", "%q: want %q", doc.Schema, Schema)
	}
	s := &Suite{Name: doc.Name, Repeat: max(doc.Repeat, 1)}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	if doc.Repeat < 0 || doc.Repeat > agent.MaxTrials {
		return nil, refuse("repeat", "%d: want 1 to %d trials of each attempt", doc.Repeat, agent.MaxTrials)
	}
	if len(doc.Tasks) == 0 {
		return nil, refuse("tasks", "no task files: list at least one (file: or glob:)")
	}
	if doc.Budgets != nil {
		attempt, err := doc.Budgets.Attempt.Domain("budgets.attempt")
		if err != nil {
			return nil, located(name, err)
		}
		if !attempt.IsZero() {
			s.AttemptBudgets = &attempt
		}
		if s.RunBudgets, err = doc.Budgets.Run.Domain("budgets.run"); err != nil {
			return nil, located(name, err)
		}
	}
	seen := map[string]string{}
	for i, e := range doc.Tasks {
		at := fmt.Sprintf("tasks[%d]", i)
		paths, err := e.paths(dir)
		if err != nil {
			return nil, refuse(at, "%v", err)
		}
		for _, p := range paths {
			if other, dup := seen[p]; dup {
				return nil, refuse(at, "%s is also %s: a suite runs each task file once", p, other)
			}
			seen[p] = at
			t, err := loadTask(p, e.Attempts, opts)
			if err != nil {
				return nil, refuse(at, "%v", err)
			}
			s.Tasks = append(s.Tasks, t)
		}
	}
	if len(s.Tasks) > MaxTasks {
		return nil, refuse("tasks", "%d task files: a suite holds at most %d", len(s.Tasks), MaxTasks)
	}
	return s, nil
}

// paths are the task files an entry names, inside dir.
func (e Entry) paths(dir string) ([]string, error) {
	pattern := e.File
	switch {
	case (e.File == "") == (e.Glob == ""):
		return nil, fmt.Errorf("give file: or glob:, one of them")
	case e.Glob != "":
		pattern = e.Glob
	}
	if !filepath.IsLocal(filepath.FromSlash(pattern)) {
		return nil, fmt.Errorf("%q is outside the suite's folder: name task files inside it, relative to it", pattern)
	}
	full := filepath.Join(dir, filepath.FromSlash(pattern))
	if e.File != "" {
		return []string{full}, nil
	}
	matches, err := filepath.Glob(full)
	if err != nil {
		return nil, fmt.Errorf("glob %q: %v", e.Glob, err)
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("glob %q matches no file", e.Glob)
	}
	slices.Sort(matches)
	return matches, nil
}

// loadTask loads a task file and checks that it has the attempts named.
func loadTask(path string, attempts []string, opts taskfile.Options) (Task, error) {
	t, err := taskfile.Load(path, opts)
	if err != nil {
		return Task{}, err
	}
	var have []string
	for _, a := range t.Attempts() {
		have = append(have, a.Slug)
	}
	for _, a := range attempts {
		if !slices.Contains(have, a) {
			return Task{}, fmt.Errorf("%s: task %q has no attempt %q; it has %v", path, t.Task().Name, a, have)
		}
	}
	return Task{Path: path, Task: t, Attempts: attempts}, nil
}

// folder is the suite of the task files in dir, named after it.
func folder(dir string, opts taskfile.Options) (*Suite, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, &taskfile.Error{File: dir, Reason: err.Error()}
	}
	s := &Suite{Name: filepath.Base(filepath.Clean(dir)), Repeat: 1}
	for _, e := range entries { // ReadDir sorts by name
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || (ext != ".yaml" && ext != ".yml" && ext != ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if data, err := readFile(path); err == nil && taskfile.SchemaOf(path, data) == Schema {
			continue // a suite file beside its tasks is no task
		}
		t, err := loadTask(path, nil, opts)
		if err != nil {
			return nil, err
		}
		s.Tasks = append(s.Tasks, t)
	}
	switch {
	case len(s.Tasks) == 0:
		return nil, fmt.Errorf("%w (%w)", &taskfile.Error{File: dir, Reason: "no task files (*.yaml, *.yml, *.json) in the folder"}, agent.ErrNothingSelected)
	case len(s.Tasks) > MaxTasks:
		return nil, &taskfile.Error{File: dir, Reason: fmt.Sprintf("%d task files: a suite holds at most %d", len(s.Tasks), MaxTasks)}
	}
	return s, nil
}

// located names the suite file in a budgets error located in it.
func located(name string, err error) error {
	if e, ok := err.(*taskfile.Error); ok {
		e.File = name
		return e
	}
	return &taskfile.Error{File: name, Reason: err.Error()}
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, taskfile.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > taskfile.MaxFileSize {
		return nil, fmt.Errorf("the file is over %d KiB", taskfile.MaxFileSize>>10)
	}
	return data, nil
}
