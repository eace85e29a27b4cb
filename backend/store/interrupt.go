package store

import (
	"fmt"
	"slices"

	"gorm.io/gorm"

	"observatory/backend/agent"
)

// interruptDeadRuns marks interrupted every running run whose writer has died, with its
// unfinished attempts, and deletes dead writers' lock files. A run from before writers were
// recorded has no writer and counts as dead. The running runs' writers are read before the
// lock files are checked: a writer holds its lock before it inserts a run, so a run inserted
// after the read is left alone, and one inserted before it has a lock the check sees.
func (s *Store) interruptDeadRuns(dataDir string) error {
	var writers []string
	if err := s.db.Model(&runRow{}).Where("status = ?", agent.RunRunning).
		Distinct("writer").Pluck("writer", &writers).Error; err != nil {
		return fmt.Errorf("listing the writers of running runs: %w", err)
	}
	live, err := liveWriters(dataDir)
	if err != nil {
		return err
	}
	dead := slices.DeleteFunc(writers, func(w string) bool { return live[w] })
	if len(dead) == 0 {
		return nil
	}
	return s.db.Transaction(func(tx *gorm.DB) error {
		cutOff := tx.Model(&runRow{}).Select("id").Where("status = ? AND writer IN ?", agent.RunRunning, dead)
		if err := tx.Model(&attemptRow{}).Where("run_id IN (?) AND terminal = ''", cutOff).
			Update("reason", interruptedReason).Error; err != nil {
			return fmt.Errorf("marking unfinished attempts interrupted: %w", err)
		}
		if err := tx.Model(&runRow{}).Where("status = ? AND writer IN ?", agent.RunRunning, dead).
			Update("status", agent.RunInterrupted).Error; err != nil {
			return fmt.Errorf("marking unfinished runs interrupted: %w", err)
		}
		return nil
	})
}
