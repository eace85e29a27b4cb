package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"observatory/backend/agent"
)

// Summary is one line of the run history.
type Summary struct {
	ID   string `json:"id"`
	Task string `json:"task"`
	// Created is when the run started; Added when it came into this history (its import).
	Created   time.Time       `json:"created"`
	Added     time.Time       `json:"added"`
	Status    agent.RunStatus `json:"status"`
	Source    string          `json:"source"`
	Attempts  int             `json:"attempts"`
	Completed int             `json:"completed"`
	// Wrong counts the finished attempts with at least one verdict that disagrees with the
	// ground truth.
	Wrong int `json:"wrong"`
	// LabHost is the address the run's lab listened on, when recorded.
	LabHost string `json:"lab_host,omitempty"`
	// SuiteRun is the suite run the run is one task of, when it is.
	SuiteRun string `json:"suite_run,omitempty"`
	// Signature is what checking an imported run's signature found, when it was imported.
	Signature *agent.Signature `json:"signature,omitempty" gorm:"serializer:json"`
}

// historyQuery lists the runs, newest added first, each with its attempts counted: all of
// them, the completed ones and the finished ones with a wrong verdict. The attempts are
// counted from the attempt_tally index alone; none of their JSON is read.
const historyQuery = "SELECT r.`id`, r.`task`, r.`created`, r.`added`, r.`status`, r.`source`, r.`lab_host`, r.`suite_run`, r.`signature`, " +
	"COUNT(a.`run_id`) AS `attempts`, " +
	"COALESCE(SUM(a.`terminal` = ?), 0) AS `completed`, " +
	"COALESCE(SUM(a.`terminal` <> '' AND a.`wrong`), 0) AS `wrong` " +
	"FROM `runs` r LEFT JOIN `attempts` a ON a.`run_id` = r.`id` " +
	"GROUP BY r.`id` ORDER BY r.`added` DESC, r.`id` DESC"

// List returns the history, the run added most recently first, in one query.
func (s *Store) List() ([]Summary, error) {
	out := []Summary{}
	if err := s.db.Raw(historyQuery, string(agent.Completed)).Scan(&out).Error; err != nil {
		return nil, fmt.Errorf("listing runs: %w", err)
	}
	return out, nil
}

// Get rebuilds one run with its attempts, steps and events in order. id may be a unique prefix
// of the run's id; a prefix that matches several runs is an ErrAmbiguous error and one that
// matches none an ErrNotFound error.
func (s *Store) Get(id string) (agent.Run, error) {
	full, err := s.resolve(id)
	if err != nil {
		return agent.Run{}, err
	}
	var r runRow
	err = s.db.
		Preload("Attempts", func(db *gorm.DB) *gorm.DB { return db.Order("position") }).
		Preload("Attempts.Steps", func(db *gorm.DB) *gorm.DB { return db.Order("\"index\"") }).
		Preload("Attempts.Events", func(db *gorm.DB) *gorm.DB { return db.Order("seq") }).
		Where("id = ?", full).Take(&r).Error
	if err != nil {
		return agent.Run{}, fmt.Errorf("reading run %q: %w", full, err)
	}
	run := r.run()
	run.Attempts = make([]agent.Attempt, len(r.Attempts))
	for i, a := range r.Attempts {
		run.Attempts[i] = a.attempt()
	}
	return run, nil
}

// resolve turns an id or unique id prefix into the run's full id.
func (s *Store) resolve(id string) (string, error) {
	if id == "" {
		return "", fmt.Errorf("empty run id: %w", ErrNotFound)
	}
	var ids []string
	err := s.db.Model(&runRow{}).Where("substr(id, 1, ?) = ?", utf8.RuneCountInString(id), id).
		Order("id").Limit(5).Pluck("id", &ids).Error
	if err != nil {
		return "", fmt.Errorf("looking up run %q: %w", id, err)
	}
	for _, full := range ids {
		if full == id {
			return full, nil
		}
	}
	switch len(ids) {
	case 0:
		return "", fmt.Errorf("run %q: %w (see `observatory runs` for the history)", id, ErrNotFound)
	case 1:
		return ids[0], nil
	}
	return "", fmt.Errorf("run id prefix %q matches %s: %w; give more of the id", id, strings.Join(ids, ", "), ErrAmbiguous)
}

// SaveImported stores an imported run, all of it or nothing, with status imported.
func (s *Store) SaveImported(run agent.Run) error {
	err := s.db.Transaction(func(tx *gorm.DB) error {
		row := runRow{ID: run.ID, Task: run.Task, Spec: string(run.Spec), Created: run.Created.UTC(), Added: time.Now().UTC(),
			Status: string(agent.RunImported), Source: run.Source, Budgets: run.Budgets, LabHost: run.LabHost,
			SuiteRun: run.SuiteRun, Signature: run.Signature}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		for i, a := range run.Attempts {
			if err := insertAttempt(tx, run.ID, i, a); err != nil {
				return fmt.Errorf("attempt %q: %w", a.Slug, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storing imported run %q: %w", run.ID, err)
	}
	return nil
}

// specOf is a stored task document, nil when the run has none.
func specOf(text string) json.RawMessage {
	if text == "" {
		return nil
	}
	return json.RawMessage(text)
}

// SuiteRuns lists the runs of suite run id (agent.Run.SuiteRun), in the order they started;
// none when no run has that suite run.
func (s *Store) SuiteRuns(id string) ([]string, error) {
	var ids []string
	if id == "" {
		return ids, nil
	}
	if err := s.db.Model(&runRow{}).Where("suite_run = ?", id).Order("created, id").Pluck("id", &ids).Error; err != nil {
		return nil, fmt.Errorf("listing the runs of suite run %q: %w", id, err)
	}
	return ids, nil
}
