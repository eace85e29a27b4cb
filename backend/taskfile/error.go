package taskfile

import (
	"errors"
	"fmt"
)

// Error is a task file refused, located: the file, the path of the bad field
// ("plan[1].target") or, when the file does not parse, the line, and why.
type Error struct {
	File   string
	Path   string
	Line   int
	Reason string
}

// Error reads "FILE: at PATH: REASON", or "FILE: line N: REASON" when no field is known.
func (e *Error) Error() string {
	where := ""
	switch {
	case e.Path != "":
		where = "at " + e.Path + ": "
	case e.Line > 0:
		where = fmt.Sprintf("line %d: ", e.Line)
	}
	file := e.File
	if file == "" {
		file = "task file"
	}
	return file + ": " + where + e.Reason
}

// errAt is an error at path, the file named later by Parse.
func errAt(path, format string, args ...any) *Error {
	return &Error{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// errLine is an error at a line of the file, for what does not parse.
func errLine(line int, format string, args ...any) *Error {
	return &Error{Line: line, Reason: fmt.Sprintf(format, args...)}
}

// located names the file in err, which is an *Error when it says where.
func located(file string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		e.File = file
		return e
	}
	return &Error{File: file, Reason: err.Error()}
}

// join is path followed by key: "plan" and "target" give "plan.target"; a key that is not a
// plain name is quoted: headers["X-Token"].
func join(path, key string) string {
	if !plainKey(key) {
		return fmt.Sprintf("%s[%q]", path, key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// index is path followed by a list index: "plan[1]".
func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for i, c := range k {
		if c != '_' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && (i == 0 || !('0' <= c && c <= '9')) {
			return false
		}
	}
	return true
}

// InDocument is where in the task document the error is (a field's path; empty when the
// file did not parse) and why, so that a run file carrying the document can name the field
// itself: run.spec.success[0].http.expr.
func (e *Error) InDocument() (path, reason string) { return e.Path, e.Reason }

// Location is where in the task file the problem lies: the field's path, or the line.
func (e *Error) Location() string {
	if e.Path == "" && e.Line > 0 {
		return fmt.Sprintf("line %d", e.Line)
	}
	return e.Path
}
