package app

import (
	"errors"
	"path/filepath"
	"slices"

	"observatory/backend/bundle"
	"observatory/backend/scratch"
	"observatory/backend/store"
)

// Prefixes of the temporary files in TempRoot: an upload being received, a bundle being
// written for a download.
const (
	uploadPrefix = "upload-"
	bundlePrefix = "bundle-"
)

// TempRoot is the folder below the data folder that holds uploads while they are received
// and bundles while they are downloaded, so that a sweep of the data folder finds what a
// killed process left there.
func TempRoot(dataDir string) string { return filepath.Join(dataDir, "tmp") }

// SweepDebris removes what processes killed mid-work left in the data folder: bundle media
// half extracted (media/.import-*), uploads half received (tmp/upload-*) and bundles half
// downloaded (tmp/bundle-*). An import killed after it stored its run is finished instead:
// its media move into place (see bundle.Settle), and one killed just after, its marker
// removed (see bundle.SweepMarkers), so an import leaves its run with all its media or
// nothing. Those that a live process holds, this one or another sharing the
// folder, are left alone. It returns the paths it removed or moved, and goes on past any it
// cannot. (An export's temporary file beside its target is swept by the next export to that
// target.)
func SweepDebris(dataDir string, st *store.Store) ([]string, error) {
	imports, err1 := scratch.SweepSettling(MediaRoot(dataDir), bundle.ImportPrefix, bundle.Settle(storedIn(st)))
	markers, err2 := bundle.SweepMarkers(MediaRoot(dataDir))
	uploads, err3 := scratch.Sweep(TempRoot(dataDir), uploadPrefix)
	bundles, err4 := scratch.Sweep(TempRoot(dataDir), bundlePrefix)
	return slices.Concat(imports, markers, uploads, bundles), errors.Join(err1, err2, err3, err4)
}

// storedIn reports whether st holds the run with exactly this id.
func storedIn(st *store.Store) func(id string) (bool, error) {
	return func(id string) (bool, error) {
		stamp, err := st.Stamp(id)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil
		}
		return err == nil && stamp.ID == id, err
	}
}
