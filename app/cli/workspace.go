package cli

import (
	"errors"
	"fmt"

	"observatory/app"
	"observatory/backend/store"
)

// dataDir is the data folder the flags or environment choose.
func dataDir(g *globals) (string, error) {
	if g.dataDir != "" {
		return g.dataDir, nil
	}
	dir, err := store.DefaultDir()
	if err != nil {
		return "", fmt.Errorf("finding the data folder: %w (set --data-dir)", err)
	}
	return dir, nil
}

// openStore opens the run database in the data folder as a writer, and sweeps from the folder
// what processes killed mid-work left there (see app.SweepDebris); a failed sweep is only
// a warning.
func openStore(g *globals) (*store.Store, string, error) {
	dir, err := dataDir(g)
	if err != nil {
		return nil, "", err
	}
	st, err := store.Open(dir)
	if err != nil {
		return nil, "", err
	}
	if _, err := app.SweepDebris(dir, st); err != nil {
		fmt.Fprintf(g.stderr, "warning: %s\n", safe(err.Error()))
	}
	return st, dir, nil
}

// withStore opens the store as a writer for the length of f, which gets it and the data
// folder.
func withStore(g *globals, f func(st *store.Store, dataDir string) error) error {
	st, dataDir, err := openStore(g)
	if err != nil {
		return err
	}
	defer st.Close()
	return f(st, dataDir)
}

// withReader opens the store for f, a command that only reads it. It opens it as a writer
// when it can, as every command does, so that runs whose process died are marked
// interrupted; in a data folder it cannot write (a read-only mount, another user's folder)
// it reads the history there read-only instead.
func withReader(g *globals, f func(st *store.Store, dataDir string) error) error {
	st, dir, err := openStore(g)
	if err != nil {
		if st, dir, err = openReadOnly(g, err); err != nil {
			return err
		}
	}
	defer st.Close()
	return f(st, dir)
}

// openReadOnly opens the history read-only after opening it as a writer failed with cause,
// and says so; if there is no history to read, it returns cause, which says why the writer
// could not open.
func openReadOnly(g *globals, cause error) (*store.Store, string, error) {
	dir, err := dataDir(g)
	if err != nil {
		return nil, "", cause
	}
	st, err := store.OpenReadOnly(dir)
	if errors.Is(err, store.ErrNoHistory) {
		return nil, "", cause
	}
	if err != nil {
		return nil, "", errors.Join(cause, err)
	}
	fmt.Fprintf(g.stderr, "warning: reading the history read-only (a run whose process died may still show as running): %s\n", safe(cause.Error()))
	return st, dir, nil
}
