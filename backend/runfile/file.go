package runfile

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"observatory/backend/agent"
)

// Format versions: Schema is the one this package writes; SchemaV1 is still read.
const (
	Schema   = "observatory.run/v2"
	SchemaV1 = "observatory.run/v1"
)

// KnownSchemas lists the format versions Decode reads.
var KnownSchemas = []string{SchemaV1, Schema}

// Limits on what a run file may hold.
const (
	// MaxBytes is the largest run file Decode reads: 8 MiB.
	MaxBytes = 8 << 20
	// MaxEvents is the most app events one attempt may have.
	MaxEvents = 64
	// MaxAnswerBytes bounds one oracle answer's raw JSON.
	MaxAnswerBytes = 32 << 10
)

// File is one run file read into the domain: its version, when it was exported and the run
// it holds (attempts included; Status is not part of a file).
type File struct {
	Schema   string
	Exported time.Time
	Run      agent.Run
	// Shard says which share of a run the file holds; nil for a whole run.
	Shard *ShardOf
	// Shards are the shard files a merged run was made from; none for a run not merged.
	Shards []MergedShard
}

// New builds the run file for run, stamped as exported at the given time.
func New(run agent.Run, exported time.Time) File {
	return File{Schema: Schema, Exported: exported.UTC(), Run: run}
}

// Encode writes run as a run file stamped now.
func Encode(w io.Writer, run agent.Run) error {
	return EncodeFile(w, New(run, time.Now()))
}

// EncodeFile writes f as version 2, indented, with members in a fixed order. It refuses a
// file that Decode would refuse (an attempt still running, too many events, ...), so every
// file it writes can be read back. A size recorded as negative is written as unknown, and an
// attempt its dead process left unfinished as cancelled or ambiguous (see finishInterrupted).
func EncodeFile(w io.Writer, f File) error {
	f.Run = finishInterrupted(unknownSizes(f.Run))
	if err := validate(f, time.Now()); err != nil {
		return fmt.Errorf("cannot export run %q: %w", f.Run.ID, err)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // a file, not a page: < > & as themselves, not six bytes each
	if err := enc.Encode(f.format()); err != nil {
		return fmt.Errorf("writing run file for run %q: %w", f.Run.ID, err)
	}
	return nil
}

// format is f as version 2's document.
func (f File) format() fileV2 {
	run := fromRun(f.Run)
	run.Shard, run.Shards = ptr(f.Shard, fromShard), mapSlice(f.Shards, fromMergedShard)
	return fileV2{Schema: Schema, Exported: f.Exported, Run: run, Attempts: mapSlice(f.Run.Attempts, fromAttempt)}
}

// importedRun is the run the file describes, as it would be stored: status imported; the
// importer sets the source.
func (f File) importedRun() agent.Run {
	run := f.Run
	run.Status = agent.RunImported
	run.Attempts = slices.Clone(f.Run.Attempts)
	return run
}

// validate checks what the JSON shape cannot: versions, limits, states, uniqueness, order and,
// against the clock's now, plausible numbers (see checkSanity).
func validate(f File, now time.Time) *Error {
	if !slices.Contains(KnownSchemas, f.Schema) {
		return unknownSchema(f.Schema)
	}
	if f.Run.Task == "" {
		return refuse(runTaskPath(f.Schema), "empty task name")
	}
	if len(f.Run.Spec) > 0 && !isObject(f.Run.Spec) {
		return refuse("run.spec", "want the task document as a JSON object")
	}
	atts := f.Run.Attempts
	if len(atts) == 0 {
		return refuse("attempts", "no attempts: a run file holds at least one")
	}
	seen := make(map[string]int, len(atts))
	for i, a := range atts {
		p := index("attempts", i)
		if j, dup := seen[a.Slug]; dup {
			return refuse(child(p, "attempt"), "duplicate attempt slug %q (also attempts[%d])", a.Slug, j)
		}
		seen[a.Slug] = i
		if err := validateAttempt(a, p); err != nil {
			return err
		}
	}
	if err := validateShards(f); err != nil {
		return err
	}
	if err := f.checkSanity(now); err != nil {
		return err
	}
	if _, err := MediaNames(atts); err != nil {
		return err.(*Error)
	}
	return nil
}

// validateAttempt checks one attempt at path p.
func validateAttempt(a agent.Attempt, p string) *Error {
	if !a.Terminal.Valid() {
		return refuse(child(p, "terminal"), "unknown terminal state %q: want one of %s (an attempt that never finished is exported only from a run its process left interrupted)",
			a.Terminal, strings.Join(terminalNames(), ", "))
	}
	if err := a.Config.Validate(); err != nil {
		return refuse(child(p, "config"), "%v", err)
	}
	if err := proseWithin(a, p); err != nil {
		return err
	}
	if len(a.Events) > MaxEvents {
		return refuse(child(p, "events"), "%d events: at most %d per attempt", len(a.Events), MaxEvents)
	}
	for j, e := range a.Events {
		ep := index(child(p, "events"), j)
		if e.Seq != j+1 {
			return refuse(child(ep, "seq"), "seq %d: want %d (events are numbered 1 to n in log order)", e.Seq, j+1)
		}
	}
	var totals trafficTotals
	if a.Opening != nil {
		if err := checkTraffic(child(p, "opening"), *a.Opening, &totals); err != nil {
			return err
		}
	}
	for j, s := range a.Steps {
		if err := checkTraffic(index(child(p, "steps"), j), s.Traffic, &totals); err != nil {
			return err
		}
	}
	for j, ans := range a.Answers {
		if len(ans.Raw) > MaxAnswerBytes {
			return refuse(child(index(child(p, "answers"), j), "raw"), "%d bytes: an answer holds at most %d", len(ans.Raw), MaxAnswerBytes)
		}
	}
	return nil
}

func terminalNames() []string {
	names := make([]string, len(agent.Terminals))
	for i, t := range agent.Terminals {
		names[i] = string(t)
	}
	return names
}

// runTaskPath is where a version names the run's task.
func runTaskPath(schema string) string {
	if schema == SchemaV1 {
		return "run.lab"
	}
	return "run.task"
}

func isObject(raw json.RawMessage) bool {
	var m map[string]any
	return json.Unmarshal(raw, &m) == nil && m != nil
}

func unknownSchema(got string) *Error {
	return refuse("schema", "unknown schema version %q: this build reads %s", got, strings.Join(KnownSchemas, ", "))
}
