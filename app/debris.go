package app

import (
	"errors"
	"path/filepath"
	"slices"

	"observatory/backend/bundle"
	"observatory/backend/scratch"
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
// downloaded (tmp/bundle-*). Those that a live process holds, this one or another sharing
// the folder, are left alone. It returns the paths it removed, and goes on past any it
// cannot remove. (An export's temporary file beside its target is swept by the next export
// to that target.)
func SweepDebris(dataDir string) ([]string, error) {
	imports, err1 := scratch.Sweep(MediaRoot(dataDir), bundle.ImportPrefix)
	uploads, err2 := scratch.Sweep(TempRoot(dataDir), uploadPrefix)
	bundles, err3 := scratch.Sweep(TempRoot(dataDir), bundlePrefix)
	return slices.Concat(imports, uploads, bundles), errors.Join(err1, err2, err3)
}
