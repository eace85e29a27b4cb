package store

import (
	"errors"
	"fmt"

	"observatory/backend/agent"
)

// ErrRunning means a run cannot be deleted because it is still being recorded.
var ErrRunning = errors.New("the run is still running")

// Delete removes a run from the history: its row and, through the schema's ON DELETE CASCADE
// constraints, its attempts, steps and events, in one transaction. id may be a unique prefix;
// the run's full id is returned, so that the caller can remove its media folder, which lies
// outside the database. A run still running (its writer alive) is refused with ErrRunning.
func (s *Store) Delete(id string) (string, error) {
	full, err := s.resolve(id)
	if err != nil {
		return "", err
	}
	res := s.db.Where("id = ? AND status <> ?", full, string(agent.RunRunning)).Delete(&runRow{})
	if res.Error != nil {
		return "", fmt.Errorf("deleting run %q: %w", full, res.Error)
	}
	if res.RowsAffected == 0 {
		return "", fmt.Errorf("deleting run %q: %w; stop it first", full, ErrRunning)
	}
	return full, nil
}
