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

// Schema is the format version this package writes.
const Schema = "observatory.run/v1"

// KnownSchemas lists the format versions Decode reads.
var KnownSchemas = []string{Schema}

// Limits on what a run file may hold.
const (
	// MaxBytes is the largest run file Decode reads: 8 MiB.
	MaxBytes = 8 << 20
	// MaxEvents is the most app events one attempt may have.
	MaxEvents = 64
)

// File is one run file.
type File struct {
	Schema   string          `json:"schema"`
	Exported time.Time       `json:"exported"`
	Run      RunInfo         `json:"run"`
	Attempts []agent.Attempt `json:"attempts"`
}

// RunInfo is the run a file was exported from.
type RunInfo struct {
	ID      string    `json:"id"`
	Lab     string    `json:"lab"`
	Created time.Time `json:"created"`
	// Source is "live", or the file the run was itself imported from.
	Source string `json:"source"`
}

// New builds the run file for run, stamped as exported at the given time.
func New(run agent.Run, exported time.Time) File {
	return File{Schema: Schema, Exported: exported.UTC(),
		Run:      RunInfo{ID: run.ID, Lab: run.Lab, Created: run.Created, Source: run.Source},
		Attempts: run.Attempts}
}

// Encode writes run as a run file stamped now.
func Encode(w io.Writer, run agent.Run) error {
	return EncodeFile(w, New(run, time.Now()))
}

// EncodeFile writes f as indented JSON with members in a fixed order. It refuses a file that
// Decode would refuse (an attempt that never finished, too many events, ...), so every file it
// writes can be read back.
func EncodeFile(w io.Writer, f File) error {
	if err := f.validate(); err != nil {
		return fmt.Errorf("cannot export run %q: %w", f.Run.ID, err)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("writing run file for run %q: %w", f.Run.ID, err)
	}
	return nil
}

// importedRun is the run the file describes, as it would be stored: status imported; the
// importer sets the source.
func (f File) importedRun() agent.Run {
	return agent.Run{ID: f.Run.ID, Lab: f.Run.Lab, Created: f.Run.Created, Status: agent.RunImported, Attempts: slices.Clone(f.Attempts)}
}

// validate checks what the JSON shape cannot: versions, limits, states, uniqueness and order.
func (f File) validate() *Error {
	if !slices.Contains(KnownSchemas, f.Schema) {
		return unknownSchema(f.Schema)
	}
	if f.Run.Lab == "" {
		return refuse("run.lab", "empty lab name")
	}
	if len(f.Attempts) == 0 {
		return refuse("attempts", "no attempts: a run file holds at least one")
	}
	seen := make(map[string]int, len(f.Attempts))
	for i, a := range f.Attempts {
		p := index("attempts", i)
		if a.Slug == "" {
			return refuse(child(p, "attempt"), "empty attempt slug")
		}
		if j, dup := seen[a.Slug]; dup {
			return refuse(child(p, "attempt"), "duplicate attempt slug %q (also attempts[%d])", a.Slug, j)
		}
		seen[a.Slug] = i
		if err := validateAttempt(a, p); err != nil {
			return err
		}
	}
	if err := f.checkSanity(time.Now()); err != nil {
		return err
	}
	if _, err := MediaNames(f.Attempts); err != nil {
		return err.(*Error)
	}
	return nil
}

// validateAttempt checks one attempt at path p.
func validateAttempt(a agent.Attempt, p string) *Error {
	if !a.Terminal.Valid() {
		return refuse(child(p, "terminal"), "unknown terminal state %q: want one of %s (an attempt that never finished cannot be exported)",
			a.Terminal, strings.Join(terminals, ", "))
	}
	if err := a.Config.Validate(); err != nil {
		return refuse(child(p, "config"), "%v", err)
	}
	if len(a.Events) > MaxEvents {
		return refuse(child(p, "events"), "%d events: at most %d per attempt", len(a.Events), MaxEvents)
	}
	for j, e := range a.Events {
		if e.Seq != j+1 {
			return refuse(child(index(child(p, "events"), j), "seq"), "seq %d: want %d (events are numbered 1 to n in log order)", e.Seq, j+1)
		}
	}
	return nil
}

var terminals = []string{string(agent.Completed), string(agent.Failed), string(agent.Rejected),
	string(agent.Exhausted), string(agent.Cancelled), string(agent.Ambiguous)}

func unknownSchema(got string) *Error {
	return refuse("schema", "unknown schema version %q: this build reads %s", got, strings.Join(KnownSchemas, ", "))
}
