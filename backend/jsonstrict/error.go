package jsonstrict

import (
	"fmt"
	"strconv"
)

// Error is a refused JSON document: where and why.
type Error struct {
	// Path locates the problem as a JSON path in the style run files use, such as
	// attempts[0].events[1].data; a key that is not a plain identifier is written quoted in
	// brackets (run["odd key"]). It is empty when the problem concerns the whole document.
	Path string
	// Reason says what is wrong, in a sentence fragment.
	Reason string
}

// Error renders "JSON refused at PATH: REASON".
func (e *Error) Error() string {
	if e.Path == "" {
		return "JSON refused: " + e.Reason
	}
	return fmt.Sprintf("JSON refused at %s: %s", e.Path, e.Reason)
}

func refuse(path, format string, args ...any) *Error {
	return &Error{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// child extends a JSON path with an object key.
func child(path, key string) string {
	if !identifier(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// index extends a JSON path with an array index.
func index(path string, i int) string {
	return fmt.Sprintf("%s[%d]", path, i)
}

// identifier reports whether key can be written bare in a path: ASCII letters, digits and
// '_', not starting with a digit.
func identifier(key string) bool {
	if key == "" {
		return false
	}
	for i, c := range key {
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// Location is the JSON path of the problem; empty for the whole document.
func (e *Error) Location() string { return e.Path }
