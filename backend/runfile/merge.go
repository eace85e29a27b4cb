package runfile

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"observatory/backend/agent"
)

// Shard is one run file to merge, with the name it is known by (for messages and the
// merged run's source).
type Shard struct {
	Name string
	File File
	// SHA256 is the digest of the file's bytes (see Digest), recorded in the merged run.
	SHA256 string
}

// Merge joins the run files of one task's shards (`run --shard K/N`) into one run. Every
// shard is verified on the way in and refused if any verdict disagrees with its replay; the
// shards must be of the same task (name and task document) run with the same configuration,
// and no attempt (or trial of one) may appear twice. The merged run holds the attempts in the
// task's declared order, an attempt's trials in theirs, a fresh id, the earliest start and, as its source, the shards' names.
func Merge(resolve Resolver, shards []Shard) (agent.Run, error) {
	if len(shards) == 0 {
		return agent.Run{}, fmt.Errorf("nothing to merge: name the shards' run files")
	}
	first := shards[0].File.Run
	suite, err := resolve(first.Task, first.Spec)
	if err != nil {
		return agent.Run{}, fmt.Errorf("%s: %w", shards[0].Name, err)
	}
	declared := make(map[string]agent.AttemptSpec)
	var order []string
	for _, s := range suite.Attempts() {
		declared[s.Slug] = s
		order = append(order, s.Slug)
	}
	bySlug := map[string]agent.Attempt{}
	from := map[string]string{}
	var changes, changesFrom string
	merged := agent.Run{ID: newID(), Task: first.Task, Spec: first.Spec, Created: first.Created, Status: agent.RunImported,
		LabHost: first.LabHost, SuiteRun: first.SuiteRun}
	var names []string
	for _, sh := range shards {
		run := sh.File.Run
		switch {
		case run.Task != first.Task:
			return agent.Run{}, fmt.Errorf("%s is a run of task %q, %s of %q: only shards of one task merge", sh.Name, run.Task, shards[0].Name, first.Task)
		case !sameJSON(run.Spec, first.Spec):
			return agent.Run{}, fmt.Errorf("%s ran another version of task %q than %s (their task documents differ)", sh.Name, run.Task, shards[0].Name)
		}
		res, err := Replay(suite, sh.File)
		if err != nil {
			return agent.Run{}, fmt.Errorf("%s: %w", sh.Name, err)
		}
		if n := len(res.Disagreements); n > 0 {
			return agent.Run{}, fmt.Errorf("%s: %d recorded verdict(s) disagree with its replay (observatory verify %s says which)", sh.Name, n, sh.Name)
		}
		for _, a := range res.Run.Attempts {
			spec, ok := declared[a.Base()]
			if !ok {
				return agent.Run{}, fmt.Errorf("%s: attempt %q is not one of task %q's", sh.Name, a.Slug, run.Task)
			}
			if other, dup := from[a.Slug]; dup {
				return agent.Run{}, fmt.Errorf("attempt %q is in both %s and %s: shards split a run, they do not overlap", a.Slug, other, sh.Name)
			}
			c := changed(spec, a)
			if changesFrom == "" {
				changes, changesFrom = c, sh.Name+" attempt "+a.Slug
			} else if c != changes {
				return agent.Run{}, fmt.Errorf("%s attempt %s ran with %s, but %s with %s: only shards of one configuration merge",
					sh.Name, a.Slug, orDefaults(c), changesFrom, orDefaults(changes))
			}
			bySlug[a.Slug], from[a.Slug] = a, sh.Name
		}
		if run.LabHost != merged.LabHost { // each machine served its own lab: no one address to record
			merged.LabHost = ""
		}
		if run.SuiteRun != merged.SuiteRun { // each machine ran a suite run of its own
			merged.SuiteRun = ""
		}
		if run.Created.Before(merged.Created) {
			merged.Created = run.Created
		}
		names = append(names, sh.Name)
	}
	for _, a := range bySlug {
		merged.Attempts = append(merged.Attempts, a)
	}
	// The task's order, and an attempt's trials in theirs, as the run that was split had them.
	slices.SortFunc(merged.Attempts, func(x, y agent.Attempt) int {
		return cmp.Or(cmp.Compare(slices.Index(order, x.Base()), slices.Index(order, y.Base())), cmp.Compare(x.Trial, y.Trial))
	})
	merged.Source = "merged from " + strings.Join(names, ", ")
	merged.Created = merged.Created.UTC()
	return merged, nil
}

// changed describes how attempt a's configuration and parameters differ from its declared
// spec: the overrides the run was started with.
func changed(spec agent.AttemptSpec, a agent.Attempt) string {
	var diffs []string
	want, got := configFields(spec.Config), configFields(a.Config)
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if want[k] != got[k] {
			diffs = append(diffs, fmt.Sprintf("%s %s", k, got[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.Params)) {
		if spec.Params[k] != a.Params[k] {
			diffs = append(diffs, fmt.Sprintf("%s %d", k, a.Params[k]))
		}
	}
	return strings.Join(diffs, ", ")
}

func configFields(c agent.Config) map[string]string {
	return map[string]string{"wait": string(c.Wait), "fixed_wait_ms": fmt.Sprint(c.FixedWaitMS), "poll_ms": fmt.Sprint(c.PollMS),
		"deadline_ms": fmt.Sprint(c.DeadlineMS), "selectors": string(c.Selectors), "budget": fmt.Sprint(c.Budget)}
}

func orDefaults(changes string) string {
	if changes == "" {
		return "the task's own configuration"
	}
	return changes
}

// sameJSON reports whether two JSON documents hold the same value.
func sameJSON(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return bytes.Equal(a, b)
	}
	ea, _ := json.Marshal(va)
	eb, _ := json.Marshal(vb)
	return bytes.Equal(ea, eb)
}
