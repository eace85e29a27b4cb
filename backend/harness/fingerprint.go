package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"observatory/backend/agent"
)

// Observe is the fingerprint of the page s for an action on target t: the route, the
// principal, the target's key, a hash of the task's relevant text, the version, the dialog,
// a hash of the form's values, and when s was taken. It deliberately leaves out what may
// change harmlessly (a banner, a timestamp, unrelated text), so that a mismatch means the page
// no longer is the one the decision was made on.
func Observe(s agent.Sample, t agent.Target) agent.Fingerprint {
	f := agent.Fingerprint{Route: route(s.URL), Principal: s.Principal, Target: t.String(), Version: s.Version,
		Dialog: s.DialogOpen, Form: formDigest(s, true), AtMS: s.AtMS}
	if len(s.Facts) > 0 {
		facts := make([]string, len(s.Facts))
		for i, x := range s.Facts {
			facts[i] = x.ID + "=" + x.Value
		}
		f.Relevant = digestSet(facts)
	}
	f.Hash = digest([]string{f.Route, f.Principal, f.Target, f.Relevant, f.Version, boolText(f.Dialog), f.Form})
	return f
}

// formDigest is a digest of the form's fields and their values; without empty ones, it leaves
// out the fields that hold no value, as Changes compares them: an empty field holds no value a
// decision could rest on, so one that appears empty (a frame's form loading after its page)
// changes nothing, while one emptied since (its value gone) still does. The fingerprint keeps
// every field, as recorded fingerprints were computed.
func formDigest(s agent.Sample, empty bool) string {
	fields := make([]string, 0, len(s.Fields))
	for _, f := range s.Fields {
		if f.Value != "" || empty {
			fields = append(fields, f.Role+"["+f.Name+"]="+f.Value)
		}
	}
	return digestSet(fields)
}

// Changes lists what differs between the page a commit was planned on (grounding) and the
// page it would act on (fresh), by the commit's risk: the route, the target, the dialog and
// the form always; the relevant text and the version for a high-risk commit. The principal is
// Admit's, against the plan's. Nothing else counts: a banner or a timestamp never stops a
// commit.
func Changes(grounding, fresh agent.Sample, t agent.Target, risk agent.Risk) []string {
	was, now := Observe(grounding, t), Observe(fresh, t)
	var out []string
	if was.Route != now.Route {
		out = append(out, fmt.Sprintf("the page moved from %s to %s", was.Route, now.Route))
	}
	if was.Dialog != now.Dialog {
		out = append(out, fmt.Sprintf("the dialog is %s, not %s", boolText(now.Dialog), boolText(was.Dialog)))
	}
	if formDigest(grounding, false) != formDigest(fresh, false) {
		out = append(out, "the form's values differ")
	}
	if risk != agent.RiskHigh {
		return out
	}
	out = append(out, factChanges(grounding.Facts, fresh.Facts)...)
	if was.Version != now.Version {
		out = append(out, fmt.Sprintf("the page's version changed from %q to %q", was.Version, now.Version))
	}
	return out
}

// factChanges names each relevant text that differs, with both values.
func factChanges(was, now []agent.Fact) []string {
	before := map[string]string{}
	for _, f := range was {
		before[f.ID] = f.Value
	}
	var out []string
	for _, f := range now {
		if v, ok := before[f.ID]; !ok || v != f.Value {
			out = append(out, fmt.Sprintf("the %s changed from %q to %q", f.ID, v, f.Value))
		}
		delete(before, f.ID)
	}
	for _, id := range sortedKeys(before) {
		out = append(out, fmt.Sprintf("the %s is no longer shown", id))
	}
	return out
}

// route is an address without its fragment.
func route(addr string) string {
	if u, err := url.Parse(addr); err == nil {
		u.Fragment = ""
		return u.String()
	}
	return addr
}

// digest hashes parts in the order given.
func digest(parts []string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x1e")))
	return hex.EncodeToString(sum[:8])
}

// digestSet hashes parts whatever their order.
func digestSet(parts []string) string {
	sorted := append([]string(nil), parts...)
	sort.Strings(sorted)
	return digest(sorted)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func boolText(b bool) string {
	if b {
		return "open"
	}
	return "closed"
}
