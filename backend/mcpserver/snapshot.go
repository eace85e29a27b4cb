package mcpserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"observatory/backend/agent"
)

// A ref names an element in the latest snapshot ("e5", or "f1e5" inside a frame); anything
// else given as a target is a selector.
var refPattern = regexp.MustCompile(`^(f\d+)?e\d+$`)

// snapshotLine reads one line of an accessibility snapshot: its role, its quoted accessible
// name if any, and its ref.
var snapshotLine = regexp.MustCompile(`^\s*- ([a-zA-Z]+)(?: ("(?:[^"\\]|\\.)*"))?.*?\[ref=([a-z0-9]+)\]`)

// element is what a snapshot says of one ref: the element's role and accessible name. The
// pair is the ref's fingerprint: a ref whose element no longer has it is stale.
type element struct {
	Role, Name string
}

func (e element) String() string {
	if e.Name == "" {
		return e.Role
	}
	return fmt.Sprintf("%s %q", e.Role, e.Name)
}

// snapshotRefs reads every ref of a snapshot, with how many elements share each role and
// name.
func snapshotRefs(snap string) (refs map[string]element, count map[element]int) {
	refs, count = map[string]element{}, map[element]int{}
	for line := range strings.Lines(snap) {
		m := snapshotLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		e := element{Role: m[1]}
		if m[2] != "" {
			if err := json.Unmarshal([]byte(m[2]), &e.Name); err != nil {
				e.Name = strings.Trim(m[2], `"`)
			}
		}
		refs[m[3]] = e
		count[e]++
	}
	return refs, count
}

// resolveRef turns a ref of the agent's latest snapshot into a target, checked against the
// page's snapshot now: refused with "take a new snapshot" when the agent has seen no such
// ref, when its element is gone or changed role or name since (stale), or when several
// elements now share its role and name (ambiguous). A named element becomes a role target
// with its exact name, so the harness classifies the action by the control's name; an
// unnamed one is found by its ref.
func resolveRef(ref string, seen map[string]element, now string) (agent.Target, error) {
	was, ok := seen[ref]
	if !ok {
		return agent.Target{}, fmt.Errorf("ref %s is not in your latest snapshot: take a new snapshot (browser_snapshot) and use a ref from it", ref)
	}
	refs, count := snapshotRefs(now)
	is, ok := refs[ref]
	switch {
	case !ok:
		return agent.Target{}, fmt.Errorf("ref %s (%s) is no longer on the page: it changed since your snapshot; take a new snapshot", ref, was)
	case is != was:
		return agent.Target{}, fmt.Errorf("ref %s was %s in your snapshot and is %s now: take a new snapshot", ref, was, is)
	case is.Name == "":
		return agent.Target{CSS: "aria-ref=" + ref}, nil
	case count[is] > 1:
		return agent.Target{}, fmt.Errorf("ref %s (%s) matches %d elements with the same role and name, and the harness never picks one: take a new snapshot, or name the element by a unique selector", ref, is, count[is])
	}
	return agent.Target{Role: is.Role, Name: is.Name}, nil
}
