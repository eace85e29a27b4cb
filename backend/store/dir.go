package store

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// DataDirEnv names the environment variable that overrides the default data folder.
const DataDirEnv = "OBSERVATORY_DATA_DIR"

// DefaultDir is the folder the database lives in when no --data-dir is given: $OBSERVATORY_DATA_DIR
// if set, else the operating system's per-user data folder (Linux: $XDG_DATA_HOME/observatory
// or ~/.local/share/observatory; macOS: ~/Library/Application Support/Observatory; Windows:
// %LocalAppData%\Observatory). It does not create the folder; Open does.
func DefaultDir() (string, error) {
	if d := os.Getenv(DataDirEnv); d != "" {
		return d, nil
	}
	return osDataDir(runtime.GOOS, os.Getenv, os.UserHomeDir)
}

// osDataDir picks the per-user data folder for goos, reading the environment through getenv.
func osDataDir(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	if goos == "windows" {
		if d := getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "Observatory"), nil
		}
		return "", fmt.Errorf("%%LocalAppData%% is not set: pass --data-dir or set %s", DataDirEnv)
	}
	if goos != "darwin" {
		if d := getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
			return filepath.Join(d, "observatory"), nil
		}
	}
	h, err := home()
	if err != nil {
		return "", fmt.Errorf("finding the home folder for the data folder: %w (pass --data-dir or set %s)", err, DataDirEnv)
	}
	if goos == "darwin" {
		return filepath.Join(h, "Library", "Application Support", "Observatory"), nil
	}
	return filepath.Join(h, ".local", "share", "observatory"), nil
}
