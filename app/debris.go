package app

import (
	"errors"
	"path/filepath"

	"observatory/backend/bundle"
	"observatory/backend/scratch"
)

// uploadPrefix starts the name of an upload's temporary file in TempRoot.
const uploadPrefix = "upload-"

// TempRoot is the folder below the data folder that holds uploads while they are received,
// so that a sweep of the data folder finds what a killed process left there.
func TempRoot(dataDir string) string { return filepath.Join(dataDir, "tmp") }

// SweepDebris removes what processes killed mid-work left in the data folder: bundle media
// half extracted (media/.import-*) and uploads half received (tmp/upload-*). Those that a
// live process holds, this one or another sharing the folder, are left alone. It returns
// the paths it removed, and goes on past any it cannot remove.
func SweepDebris(dataDir string) ([]string, error) {
	imports, err1 := scratch.Sweep(MediaRoot(dataDir), bundle.ImportPrefix)
	uploads, err2 := scratch.Sweep(TempRoot(dataDir), uploadPrefix)
	return append(imports, uploads...), errors.Join(err1, err2)
}
