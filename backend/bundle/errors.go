package bundle

import "fmt"

// Error is a refused bundle: which entry is wrong and what is wrong with it.
type Error struct {
	// Entry is the archive entry's name as the bundle spells it, empty when the problem
	// concerns the whole archive.
	Entry string
	// Problem says what is wrong, in a sentence fragment.
	Problem string
}

// Error renders "bundle refused at ENTRY: PROBLEM".
func (e *Error) Error() string {
	if e.Entry == "" {
		return "bundle refused: " + e.Problem
	}
	return fmt.Sprintf("bundle refused at entry %q: %s", e.Entry, e.Problem)
}

// refuse builds an Error for entry.
func refuse(entry, format string, args ...any) *Error {
	return &Error{Entry: entry, Problem: fmt.Sprintf(format, args...)}
}

// Location is the archive entry at fault; empty for the whole archive.
func (e *Error) Location() string { return e.Entry }
