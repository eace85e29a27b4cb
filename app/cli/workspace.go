package cli

import (
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
	if _, err := app.SweepDebris(dir); err != nil {
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
