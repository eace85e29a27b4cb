package bundle

import (
	"fmt"
	"regexp"
	"strings"

	"observatory/backend/agent"
)

// Entry names inside a bundle.
const (
	// RunFile is the run file's entry.
	RunFile = "run.json"
	// MediaPrefix starts every media entry: media/<name>, name relative to the run's media
	// folder.
	MediaPrefix = "media/"
)

// plainName is a media file name a bundle may carry: no folders, no leading dot.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$`)

// mediaRefs lists, in run order and once each, the media the run's attempts name: each
// video, then the screenshots of each step's before and after samples. It refuses a name
// that is not a plain file name, which a bundle cannot carry and a media folder must not
// resolve.
func mediaRefs(run agent.Run) ([]string, error) {
	var refs []string
	seen := map[string]bool{}
	for _, a := range run.Attempts {
		names := []string{a.Video}
		for _, s := range a.Steps {
			names = append(names, s.Before.Screenshot, s.After.Screenshot)
		}
		for _, n := range names {
			if n == "" || seen[n] {
				continue
			}
			if !plainName.MatchString(n) {
				return nil, fmt.Errorf("attempt %q names media %q, which is not a plain file name (letters, digits, '.', '_' and '-', not starting with '.')", a.Slug, n)
			}
			seen[n] = true
			refs = append(refs, n)
		}
	}
	return refs, nil
}

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
