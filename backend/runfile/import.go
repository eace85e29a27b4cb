package runfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"observatory/backend/agent"
)

// Saver stores an imported run, all of it or nothing; the store implements it.
type Saver interface {
	SaveImported(run agent.Run) error
}

// Import decodes a run file, finds the suite that judges it, replays it and, only if all
// that succeeds, saves the run with its recomputed verdicts under a fresh id, with source set
// to name (the file's name). A refused file saves nothing.
func Import(resolve Resolver, s Saver, name string, r io.Reader) (Result, error) {
	f, err := Decode(r)
	if err != nil {
		return Result{}, err
	}
	res, err := Verify(resolve, f)
	if err != nil {
		return Result{}, err
	}
	res.Run.ID = newID()
	res.Run.Source = name
	if err := s.SaveImported(res.Run); err != nil {
		return Result{}, fmt.Errorf("importing %s: %w", name, err)
	}
	return res, nil
}

// newID is a fresh random run id: 16 hex digits.
func newID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Verify finds the suite that judges f and replays f with it.
func Verify(resolve Resolver, f File) (Result, error) {
	suite, err := resolve(f.Run.Task, f.Run.Spec)
	if err != nil {
		return Result{}, unresolved(f, err)
	}
	return Replay(suite, f)
}

// unresolved locates a resolver's refusal: at the run's task when the file carries no task
// document; at the document's own field when the error names one (see Resolver); else at
// run.spec.
func unresolved(f File, err error) *Error {
	if len(f.Run.Spec) == 0 {
		return refuse(runTaskPath(f.Schema), "%v", err)
	}
	var in interface{ InDocument() (path, reason string) }
	if errors.As(err, &in) {
		if path, reason := in.InDocument(); path != "" {
			if !strings.HasPrefix(path, "[") {
				path = "." + path
			}
			return refuse("run.spec"+path, "the task document refused: %s", reason)
		}
	}
	return refuse("run.spec", "%v", err)
}
