package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"observatory/backend/agent"
	"observatory/backend/jsonstrict"
	"observatory/backend/planner/model"
	"observatory/backend/retention"
	"observatory/backend/taskfile"
)

// UserSettings are the choices runs started from the UI use. Config holds only the numbers
// the user chose to force on every attempt; the rest keep each attempt's own, so that the
// fixed-wait attempt still waits a fixed delay unless the user says otherwise.
type UserSettings struct {
	Config      agent.ConfigOverride `json:"config"`
	Headed      bool                 `json:"headed"`
	BrowserPath string               `json:"browser_path"`
	// Media is what the runs started here record (its fields sit beside these in the JSON).
	agent.Media
	// Parallel is how many attempts run at once (0 or 1: one after another).
	Parallel int `json:"parallel,omitempty"`
	// Models plan runs when a model plans them, tried in order. Each names the environment
	// variable or the OS keyring entry holding its key; the key itself is never stored here.
	Models []model.ModelConfig `json:"models,omitempty"`
	// Planner is who plans the runs started here: "script" (the task's plan; the default, and
	// a model still plans a task without one) or "model".
	Planner string `json:"planner,omitempty"`
	// Retention bounds the history: the runs past it are deleted after each run and at
	// start. Off by default.
	Retention retention.Policy `json:"retention"`
	// Harness is HarnessOn (the default, when empty) or HarnessOff: the runs started here
	// then run the same plan without the harness (no holds, review or approval; ambiguous
	// commits retried blindly), the naive column, as --harness off does.
	Harness string `json:"harness,omitempty"`
	// AllowPaths are folders, besides a task file's own, where the files it names may be;
	// AllowEnv the environment variables task files may read (names, or patterns with *
	// that never match a secret-looking name); AllowLinkLocal lets them reach link-local and
	// cloud-metadata hosts. A task file itself can widen none of them (see docs/security.md).
	AllowPaths     []string `json:"allow_paths,omitempty"`
	AllowEnv       []string `json:"allow_env,omitempty"`
	AllowLinkLocal bool     `json:"allow_link_local,omitempty"`
	// SignExports names the own signing key every export of a run file or bundle is signed
	// with; empty: exports are signed only when asked (export --sign).
	SignExports string `json:"sign_exports,omitempty"`
}

// Trust is what these settings let task files reach, with more given on top (the command
// line's, a yes to a question).
func (u UserSettings) Trust(more taskfile.Trust) taskfile.Trust {
	return taskfile.Trust{Paths: append(slices.Clone(u.AllowPaths), more.Paths...), Env: append(slices.Clone(u.AllowEnv), more.Env...),
		LinkLocal: u.AllowLinkLocal || more.LinkLocal}
}

// SettingsIn are the settings kept in the data folder dir.
func SettingsIn(dir string) *Settings {
	return &Settings{path: filepath.Join(dir, "settings.json")}
}

// Values of UserSettings.Harness.
const (
	HarnessOn  = "on"
	HarnessOff = "off"
)

// DefaultSettings override nothing, run headless, and record video and screenshots.
func DefaultSettings() UserSettings {
	return UserSettings{Media: agent.Media{Video: true, Screenshots: true}}
}

// Settings keeps UserSettings in settings.json in the data folder.
type Settings struct {
	path string
	mu   sync.Mutex
}

// Get returns the saved settings, or the defaults when none are saved yet.
func (s *Settings) Get() (UserSettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := DefaultSettings()
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("reading settings: %w", err)
	}
	if err := jsonstrict.Unmarshal(b, &out); err != nil {
		return DefaultSettings(), fmt.Errorf("settings file %s is damaged (%v); saving settings again replaces it", s.path, err)
	}
	return out, nil
}

// Save checks and stores the settings.
func (s *Settings) Save(u UserSettings) error {
	if err := u.Config.Apply(agent.DefaultConfig()).Validate(); err != nil {
		return fmt.Errorf("settings not saved: %w", err)
	}
	if u.Parallel < 0 || u.Parallel > MaxParallel {
		return fmt.Errorf("settings not saved: parallel %d: want 1 to %d attempts at once", u.Parallel, MaxParallel)
	}
	if err := u.Retention.Validate(); err != nil {
		return fmt.Errorf("settings not saved: %w", err)
	}
	if u.Harness != "" && u.Harness != HarnessOn && u.Harness != HarnessOff {
		return fmt.Errorf("settings not saved: harness %q: want %s or %s", u.Harness, HarnessOn, HarnessOff)
	}
	if err := checkModels(u); err != nil {
		return fmt.Errorf("settings not saved: %w", err)
	}
	if err := u.Trust(taskfile.Trust{}).Check(); err != nil {
		return fmt.Errorf("settings not saved: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := json.MarshalIndent(u, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	tmp := s.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	return os.Rename(tmp, s.path)
}
