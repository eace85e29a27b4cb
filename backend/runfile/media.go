package runfile

import (
	"regexp"
	"strings"

	"observatory/backend/agent"
)

// plainName is a media file name of the kinds Observatory writes: a JPEG screenshot, a WebM
// video, a Playwright trace zip or a DOM snapshot (text, never .html).
var plainName = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,110}\.(jpg|webm|trace\.zip|dom\.txt)$`)

// PlainMediaName reports whether name is what a run may call a media file: a file name in
// the run's own media folder, never a path, never hidden, and only of the kinds Observatory
// writes (.jpg, .webm, .trace.zip, .dom.txt). Anything else, an .svg or .html say, could run
// as a page of this origin if someone opened it, so a run file naming one is refused.
func PlainMediaName(name string) bool { return plainName.MatchString(name) }

// MediaNames lists, once each and in run order, the media files the attempts name: each
// video and Playwright trace, then the screenshots and DOM snapshots of every step's before
// and after samples. A name that is not a
// plain file name is refused with its path in the file, because a media folder must never
// resolve it (a stranger's file could otherwise point at "../../.ssh/id_rsa").
func MediaNames(attempts []agent.Attempt) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	add := func(name, path string) *Error {
		if name == "" || seen[name] {
			return nil
		}
		if !PlainMediaName(name) {
			return refuse(path, "media name %q is not a plain file name (letters, digits, '.', '_' and '-', not starting with '.') ending in .jpg, .webm, .trace.zip or .dom.txt", name)
		}
		seen[name] = true
		names = append(names, name)
		return nil
	}
	for i, a := range attempts {
		p := index("attempts", i)
		if err := add(a.Video, child(p, "video")); err != nil {
			return nil, err
		}
		if err := add(a.Trace, child(p, "trace")); err != nil {
			return nil, err
		}
		for j, s := range a.Steps {
			sp := index(child(p, "steps"), j)
			for _, side := range []struct {
				name string
				s    agent.Sample
			}{{"before", s.Before}, {"after", s.After}} {
				if err := add(side.s.Screenshot, child(child(sp, side.name), "screenshot")); err != nil {
					return nil, err
				}
				if d := side.s.DOM; d != "" && !strings.HasSuffix(d, agent.DOMExt) {
					return nil, refuse(child(child(sp, side.name), "dom"), "media name %q: a DOM snapshot's name ends in %s", d, agent.DOMExt)
				}
				if err := add(side.s.DOM, child(child(sp, side.name), "dom")); err != nil {
					return nil, err
				}
			}
		}
	}
	return names, nil
}
