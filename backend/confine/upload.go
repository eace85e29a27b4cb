package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside is wrapped by every refusal of a path that is not a file inside the folder.
var ErrOutside = errors.New("not a file inside the uploads folder")

// CheckName refuses an upload path that could leave the folder it is read in, before any
// file is looked at: an empty or absolute path, or one with a `..` element.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("no file named; give a path inside the uploads folder: %w", ErrOutside)
	}
	if filepath.IsAbs(name) || strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || filepath.VolumeName(name) != "" {
		return fmt.Errorf("%q is an absolute path; give a path relative to the uploads folder: %w", name, ErrOutside)
	}
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return fmt.Errorf("%q: `..` leaves the uploads folder; give a path inside it: %w", name, ErrOutside)
		}
	}
	return nil
}

// Resolve returns the real path of the file name names inside root: name is relative to
// root, has no `..` element, and once every symlink is followed still lies inside root's
// real path and is a regular file. Anything else is refused with an error wrapping
// ErrOutside that says what to do.
func Resolve(root, name string) (string, error) {
	if root == "" {
		return "", fmt.Errorf("upload %q: the task names no uploads folder; set `uploads:` in the task file: %w", name, ErrOutside)
	}
	if err := CheckName(name); err != nil {
		return "", fmt.Errorf("upload: %w", err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("upload %q: the uploads folder %s: %w", name, root, err)
	}
	realRoot, err = filepath.Abs(realRoot)
	if err != nil {
		return "", fmt.Errorf("upload %q: the uploads folder %s: %w", name, root, err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(realRoot, filepath.FromSlash(name)))
	if err != nil {
		return "", fmt.Errorf("upload %q: %w", name, err)
	}
	if rel, err := filepath.Rel(realRoot, real); err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("upload %q: a symlink leads to %s, outside the uploads folder %s: %w", name, real, realRoot, ErrOutside)
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("upload %q: %w", name, err)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("upload %q: %s is not a regular file: %w", name, real, ErrOutside)
	}
	return real, nil
}
