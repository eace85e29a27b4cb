package runfile

import (
	"fmt"
	"strings"
)

// Error is a refused run file: what is wrong and where.
type Error struct {
	// Path locates the problem as a JSON path such as attempts[2].events[5].type; it is empty
	// when the problem concerns the whole file.
	Path string
	// Line, Column (1-based) and Offset (bytes) locate a syntax error; Line is 0 otherwise.
	Line, Column int
	Offset       int64
	// Problem says what is wrong, in a sentence fragment.
	Problem string
}

// Error renders "run file refused at WHERE: PROBLEM".
func (e *Error) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("run file refused at line %d, column %d (byte %d): %s", e.Line, e.Column, e.Offset, e.Problem)
	case e.Path != "":
		return fmt.Sprintf("run file refused at %s: %s", e.Path, e.Problem)
	}
	return "run file refused: " + e.Problem
}

// refuse builds an Error at path.
func refuse(path, format string, args ...any) *Error {
	return &Error{Path: path, Problem: fmt.Sprintf(format, args...)}
}

// refuseAt builds an Error at a byte offset of data, with its line and column.
func refuseAt(data []byte, offset int64, format string, args ...any) *Error {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := 1 + strings.Count(string(before), "\n")
	col := int(offset) - strings.LastIndexByte(string(before), '\n')
	return &Error{Line: line, Column: col, Offset: offset, Problem: fmt.Sprintf(format, args...)}
}

// child extends a JSON path with an object key.
func child(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// index extends a JSON path with an array index.
func index(path string, i int) string {
	return fmt.Sprintf("%s[%d]", path, i)
}

// Location is where in the run file the problem lies: the JSON path, or the line and column
// of a syntax error.
func (e *Error) Location() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d, column %d", e.Line, e.Column)
	}
	return e.Path
}
