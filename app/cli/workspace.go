package cli

import (
	"fmt"

	"observatory/backend/store"
)

// openStore opens the run database in the data folder the flags or environment choose.
func openStore(g *globals) (*store.Store, string, error) {
	dir := g.dataDir
	if dir == "" {
		var err error
		if dir, err = store.DefaultDir(); err != nil {
			return nil, "", fmt.Errorf("finding the data folder: %w (set --data-dir)", err)
		}
	}
	st, err := store.Open(dir)
	if err != nil {
		return nil, "", err
	}
	return st, dir, nil
}

// withStore opens the store for the length of f, which gets it and the data folder.
func withStore(g *globals, f func(st *store.Store, dataDir string) error) error {
	st, dataDir, err := openStore(g)
	if err != nil {
		return err
	}
	defer st.Close()
	return f(st, dataDir)
}
