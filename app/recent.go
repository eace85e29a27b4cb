package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"observatory/backend/jsonstrict"
)

// filePrefix marks a task reference that names a task file opened here ("file:3fa9…").
const filePrefix = "file:"

// maxRecent is how many opened task files the list keeps.
const maxRecent = 20

// recentTask is one task file opened in the UI. One whose text the UI sent (a file picker in
// a browser, a drop) is kept in the data folder under its content hash, so a run can be
// started from it again and nothing takes a path from the UI. One picked in the desktop's
// native dialog is remembered by its path and read again each time: an edit counts, its
// relative paths keep their folder, and a file moved or deleted shows as missing.
type recentTask struct {
	Ref  string `json:"ref"`
	Name string `json:"name"`
	// Path is the file's absolute path, for one picked in the native dialog; empty for a kept
	// text.
	Path   string    `json:"path,omitempty"`
	Opened time.Time `json:"opened"`
}

// recentTasks keeps the opened task files in <data>/tasks: one file per task text, and
// recent.json listing them, newest first.
type recentTasks struct {
	dir string
	mu  sync.Mutex
}

// add stores text under its hash and puts it first in the list; it returns the reference.
func (r *recentTasks) add(name string, text []byte) (string, error) {
	return r.put(recentTask{Ref: hashRef(text), Name: filepath.Base(name)}, text)
}

// addPath puts the task file at path first in the list, by its absolute path (its text is
// read again each time); it returns the reference.
func (r *recentTasks) addPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return r.put(recentTask{Ref: hashRef([]byte("path:" + abs)), Name: filepath.Base(abs), Path: abs}, nil)
}

// hashRef is the reference of a task: a hash of what identifies it (its text, or "path:" and
// its path), never a path itself.
func hashRef(b []byte) string {
	sum := sha256.Sum256(b)
	return filePrefix + hex.EncodeToString(sum[:8])
}

// put keeps text (when not nil) and puts t first in the list, opened now; the oldest past
// maxRecent are forgotten.
func (r *recentTasks) put(t recentTask, text []byte) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		return "", fmt.Errorf("keeping the task file: %w", err)
	}
	if text != nil {
		if err := writeBytes(r.path(t.Ref), text); err != nil {
			return "", fmt.Errorf("keeping the task file: %w", err)
		}
	}
	list, err := r.read()
	if err != nil {
		return "", err
	}
	list = slices.DeleteFunc(list, func(old recentTask) bool { return old.Ref == t.Ref })
	t.Opened = time.Now().UTC()
	list = append([]recentTask{t}, list...)
	for _, gone := range list[min(len(list), maxRecent):] {
		_ = os.Remove(r.path(gone.Ref))
	}
	return t.Ref, r.write(list[:min(len(list), maxRecent)])
}

// forget drops ref from the list and removes its kept text, if any.
func (r *recentTasks) forget(ref string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	list, err := r.read()
	if err != nil {
		return err
	}
	list = slices.DeleteFunc(list, func(t recentTask) bool { return t.Ref == ref })
	_ = os.Remove(r.path(ref))
	return r.write(list)
}

// list returns the remembered task files, newest first.
func (r *recentTasks) list() ([]recentTask, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.read()
}

// get returns the entry of ref.
func (r *recentTasks) get(ref string) (recentTask, error) {
	list, err := r.list()
	if err != nil {
		return recentTask{}, err
	}
	for _, t := range list {
		if t.Ref == ref {
			return t, nil
		}
	}
	return recentTask{}, fmt.Errorf("no task %q: open the task file again", ref)
}

// text returns the kept text of ref.
func (r *recentTasks) text(ref string) ([]byte, error) {
	if !validRef(ref) {
		return nil, fmt.Errorf("no task %q: open the task file again", ref)
	}
	b, err := os.ReadFile(r.path(ref))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("the kept copy of task %q is gone: open the task file again", ref)
	}
	return b, err
}

// validRef reports whether ref is a file reference this list could have made: a hash, never
// a path.
func validRef(ref string) bool {
	h, ok := strings.CutPrefix(ref, filePrefix)
	if !ok || len(h) != 16 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

func (r *recentTasks) path(ref string) string {
	return filepath.Join(r.dir, strings.TrimPrefix(ref, filePrefix)+".task")
}

func (r *recentTasks) read() ([]recentTask, error) {
	b, err := os.ReadFile(filepath.Join(r.dir, "recent.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the recent tasks: %w", err)
	}
	var list []recentTask
	if err := jsonstrict.Unmarshal(b, &list); err != nil {
		return nil, nil // a damaged list is forgotten, not fatal: the tasks can be opened again
	}
	return slices.DeleteFunc(list, func(t recentTask) bool { return !validRef(t.Ref) }), nil
}

func (r *recentTasks) write(list []recentTask) error {
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	return writeBytes(filepath.Join(r.dir, "recent.json"), b)
}

// writeBytes writes data to path atomically.
func writeBytes(path string, data []byte) error {
	return writeAtomically(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
