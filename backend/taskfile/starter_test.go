package taskfile_test

import (
	"testing"

	"observatory/backend/taskfile"
)

func TestStarterIsAValidTask(t *testing.T) {
	s, err := taskfile.Parse("starter.yaml", taskfile.Starter, "", taskfile.Options{LookupEnv: lookup(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if o := s.Outline(); len(o.Attempts) != 2 || len(o.Conditions) != 1 || len(o.Signals) != 2 {
		t.Errorf("the starter outlines as %+v", o)
	}
}
