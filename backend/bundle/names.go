package bundle

import (
	"strings"
)

// Entry names inside a bundle.
const (
	// RunFile is the run file's entry.
	RunFile = "run.json"
	// MediaPrefix starts every media entry: media/<name>, name relative to the run's media
	// folder.
	MediaPrefix = "media/"
	// SignatureFile is a signed bundle's signature: a DSSE envelope whose statement signs
	// run.json and every media entry (see backend/signing).
	SignatureFile = "signature.json"
)

// checkPath refuses an entry name that could escape the folder it is extracted into, on any
// operating system.
func checkPath(name string) *Error {
	switch {
	case strings.Contains(name, `\`):
		return refuse(name, "the name contains a backslash; bundle entries use '/' only")
	case strings.HasPrefix(name, "/"):
		return refuse(name, "an absolute path escapes the bundle")
	case len(name) >= 2 && name[1] == ':':
		return refuse(name, "a drive letter escapes the bundle")
	case hasDotDot(name):
		return refuse(name, "a \"..\" segment escapes the bundle")
	}
	return nil
}

func hasDotDot(name string) bool {
	for seg := range strings.SplitSeq(name, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}
