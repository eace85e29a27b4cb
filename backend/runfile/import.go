package runfile

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"

	"observatory/backend/agent"
)

// Saver stores an imported run, all of it or nothing; the store implements it.
type Saver interface {
	SaveImported(run agent.Run) error
}

// Import decodes a run file, finds the lab it names, replays it and, only if all that
// succeeds, saves the run with its recomputed verdicts under a fresh id, with source set to
// name (the file's name). A refused file saves nothing.
func Import(findLab func(name string) (agent.Lab, error), s Saver, name string, r io.Reader) (Result, error) {
	f, err := Decode(r)
	if err != nil {
		return Result{}, err
	}
	lab, err := findLab(f.Run.Lab)
	if err != nil {
		return Result{}, refuse("run.lab", "%v", err)
	}
	res, err := Replay(lab, f)
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
