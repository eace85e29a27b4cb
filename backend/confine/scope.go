package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotAllowed is wrapped by every refusal of a path outside a scope's folders.
var ErrNotAllowed = errors.New("not allowed")

// Scope is the folders the paths a file names may resolve in: the file's own folder, and
// those the user allowed besides it. A file can never widen its own scope.
type Scope struct {
	// Home is the folder relative paths start from, and the first folder allowed; empty for
	// a file that lives in no folder (built into the binary, or opened as text), whose
	// relative paths start from the working directory and must lie in an Allowed folder.
	Home string
	// Allowed are the folders the user allowed besides Home (on the command line, in their
	// settings).
	Allowed []string
}

// Path resolves p, relative to Home or absolute, to its real path with every symlink
// followed, and refuses it unless that lies inside Home's or an Allowed folder's real path
// (or is one of them). Of a path that does not exist yet, the part that exists is resolved
// and the rest kept as written (cleaned, so no `..` is left in it); whoever needs the file
// to exist checks that. A refusal wraps ErrNotAllowed.
func (s Scope) Path(p string) (string, error) {
	if p == "" {
		return "", errors.New("no path given")
	}
	joined := p
	if !filepath.IsAbs(p) && s.Home != "" {
		joined = filepath.Join(s.Home, p)
	}
	real, err := realPath(joined)
	if err != nil {
		return "", err
	}
	var folders []string
	for _, f := range append([]string{s.Home}, s.Allowed...) {
		if f == "" {
			continue
		}
		rf, err := realPath(f)
		if err != nil {
			continue // a folder that is gone allows nothing
		}
		if within(rf, real) {
			return real, nil
		}
		folders = append(folders, rf)
	}
	where := "outside the file's folder and the folders allowed (" + strings.Join(folders, ", ") + ")"
	if len(folders) == 0 {
		where = "outside every folder allowed (the file lives in no folder, and none is allowed)"
	}
	if abs, _ := filepath.Abs(joined); real != abs {
		return "", fmt.Errorf("%s leads to %s, %s: %w", p, real, where, ErrNotAllowed)
	}
	return "", fmt.Errorf("%s is %s: %w", real, where, ErrNotAllowed)
}

// realPath is p absolute, with every symlink followed; of a path that does not exist, its
// longest existing start is resolved and the rest appended.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for {
		real, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if _, lerr := os.Lstat(abs); lerr == nil { // a symlink to nothing: where it leads is unknown
			return "", fmt.Errorf("%s is a symlink to a file that does not exist", abs)
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", err
		}
		rest = filepath.Join(filepath.Base(abs), rest)
		abs = parent
	}
}

// within reports whether path is folder or lies inside it; both are real and absolute.
func within(folder, path string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
