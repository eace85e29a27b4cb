package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/pflag"

	"observatory/app"
	"observatory/backend/taskfile"
)

// trustFlags widen what a task file may reach, as the user's settings do (allow_paths,
// allow_env, allow_link_local): a task file itself never can.
type trustFlags struct {
	paths, env []string
	linkLocal  bool
}

func (t *trustFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&t.paths, "allow-path", nil, "let the task file name files in this folder too (repeatable); by default only its own folder, symlinks followed")
	fs.StringArrayVar(&t.env, "allow-env", nil, "let the task file read this environment variable (repeatable); a pattern with * (APP_*) never allows a name that looks secret (*_KEY, *_TOKEN, AWS_*…)")
	fs.BoolVar(&t.linkLocal, "allow-link-local", false, "let the task's origins and HTTP conditions reach link-local and cloud-metadata hosts (169.254.0.0/16, fe80::/10, metadata.*)")
}

// trust is what the flags and the user's settings in the data folder allow together; the
// settings are skipped when there are none to read.
func (t *trustFlags) trust(g *globals) (taskfile.Trust, error) {
	flags := taskfile.Trust{Env: t.env, LinkLocal: t.linkLocal}
	for _, p := range t.paths { // relative to the working directory, as paths on a command line are
		abs, err := filepath.Abs(p)
		if err != nil {
			return taskfile.Trust{}, fmt.Errorf("--allow-path %s: %w", safe(p), err)
		}
		flags.Paths = append(flags.Paths, abs)
	}
	if err := flags.Check(); err != nil {
		return taskfile.Trust{}, err
	}
	dir, err := dataDir(g)
	if err != nil {
		return flags, nil //nolint:nilerr // no data folder: no settings to add
	}
	set, err := app.SettingsIn(dir).Get()
	if err != nil {
		return taskfile.Trust{}, err
	}
	return set.Trust(flags), nil
}
