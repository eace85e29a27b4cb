package store

import (
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"observatory/backend/agent"
)

// Store records runs as they progress; each call is one transaction.
var _ agent.Recorder = (*Store)(nil)

// RunStarted inserts the run with status running, written by this Store.
func (s *Store) RunStarted(run agent.Run) error {
	row := runRow{ID: run.ID, Task: run.Task, Spec: string(run.Spec), Created: run.Created.UTC(), Added: run.Created.UTC(), Status: string(agent.RunRunning),
		Source: run.Source, Writer: s.writer.token, Budgets: run.Budgets, LabHost: run.LabHost,
		SuiteRun: run.SuiteRun}
	if err := s.db.Create(&row).Error; err != nil {
		return fmt.Errorf("recording the start of run %q: %w", run.ID, err)
	}
	return nil
}

// AttemptStarted inserts the attempt at its position in the run.
func (s *Store) AttemptStarted(runID string, position int, a agent.Attempt) error {
	err := s.db.Transaction(func(tx *gorm.DB) error {
		return insertAttempt(tx, runID, position, a)
	})
	if err != nil {
		return fmt.Errorf("recording the start of attempt %q of run %q: %w", a.Slug, runID, err)
	}
	return nil
}

// StepRecorded inserts the step and the events that arrived with it; an event already stored under the same seq is replaced.
func (s *Store) StepRecorded(runID, slug string, st agent.Step, events []agent.Event) error {
	err := s.db.Transaction(func(tx *gorm.DB) error {
		id, err := attemptID(tx, runID, slug)
		if err != nil {
			return err
		}
		row := newStepRow(id, st)
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		return upsertEvents(tx, id, events)
	})
	if err != nil {
		return fmt.Errorf("recording step %d of attempt %q of run %q: %w", st.Index, slug, runID, err)
	}
	return nil
}

// AttemptFinished stores the attempt's terminal state, reason, browser log, the agent's
// claim, verdicts (and whether one is wrong), oracle answers, the planner's turns that led to
// no step, the viewport its page was opened at, video and trace, and replaces
// its events with a.Events, which is the attempt's complete log. Its steps' requests are
// written again as a.Steps files them: a request is recorded with the step during which it
// ended, and filed under the step that sent it only once the attempt ended.
func (s *Store) AttemptFinished(runID string, a agent.Attempt) error {
	err := s.db.Transaction(func(tx *gorm.DB) error {
		id, err := attemptID(tx, runID, a.Slug)
		if err != nil {
			return err
		}
		row := attemptRow{ID: id, Terminal: string(a.Terminal), Reason: a.Reason, Verdicts: a.Verdicts, Wrong: anyWrong(a.Verdicts),
			Answers: a.Answers, ModelTurns: a.ModelTurns, Viewport: a.Viewport, Evidence: string(a.EvidenceLevel), Video: a.Video, Trace: a.Trace, BrowserLog: agent.BoundBrowserLog(a.BrowserLog), Claim: a.Claim, Opening: a.Opening}
		if err := tx.Model(&row).Select("terminal", "reason", "verdicts", "wrong", "answers", "model_turns", "viewport", "evidence", "video", "trace", "browser_log", "claim", "opening").Updates(&row).Error; err != nil {
			return err
		}
		if err := refileRequests(tx, id, a.Steps); err != nil {
			return err
		}
		if err := tx.Where("attempt_id = ?", id).Delete(&eventRow{}).Error; err != nil {
			return err
		}
		return upsertEvents(tx, id, a.Events)
	})
	if err != nil {
		return fmt.Errorf("recording the end of attempt %q of run %q: %w", a.Slug, runID, err)
	}
	return nil
}

// MediaSaved stores the attempt's video and trace, written after it finished.
func (s *Store) MediaSaved(runID, slug string, rec agent.Recording) error {
	err := s.db.Transaction(func(tx *gorm.DB) error {
		id, err := attemptID(tx, runID, slug)
		if err != nil {
			return err
		}
		row := attemptRow{ID: id, Video: rec.Video, Trace: rec.Trace}
		return tx.Model(&row).Select("video", "trace").Updates(&row).Error
	})
	if err != nil {
		return fmt.Errorf("recording the media of attempt %q of run %q: %w", slug, runID, err)
	}
	return nil
}

// RunFinished sets the run's final status.
func (s *Store) RunFinished(runID string, status agent.RunStatus) error {
	res := s.db.Model(&runRow{}).Where("id = ?", runID).Update("status", status)
	if res.Error != nil {
		return fmt.Errorf("recording the end of run %q: %w", runID, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("recording the end of run %q: %w", runID, ErrNotFound)
	}
	return nil
}

// attemptID finds the row id of the run's attempt slug.
func attemptID(tx *gorm.DB, runID, slug string) (uint, error) {
	var row attemptRow
	err := tx.Select("id").Where("run_id = ? AND slug = ?", runID, slug).Take(&row).Error
	if err == gorm.ErrRecordNotFound {
		return 0, fmt.Errorf("attempt %q was never started in run %q", slug, runID)
	}
	return row.ID, err
}

// stepBatch is how many steps one INSERT writes.
const stepBatch = 500

// insertAttempt writes a whole attempt: its row, steps and events.
func insertAttempt(tx *gorm.DB, runID string, pos int, a agent.Attempt) error {
	row := newAttemptRow(runID, pos, a)
	if err := tx.Create(&row).Error; err != nil {
		return err
	}
	if len(a.Steps) > 0 {
		steps := make([]stepRow, len(a.Steps))
		for i, st := range a.Steps {
			steps[i] = newStepRow(row.ID, st)
		}
		// In batches: one INSERT of a long attempt's steps would pass SQLite's limit on
		// bound variables (32766).
		if err := tx.CreateInBatches(&steps, stepBatch).Error; err != nil {
			return err
		}
	}
	return upsertEvents(tx, row.ID, a.Events)
}

// upsertEvents writes events, replacing any stored under the same seq.
func upsertEvents(tx *gorm.DB, attemptID uint, events []agent.Event) error {
	if len(events) == 0 {
		return nil
	}
	rows := make([]eventRow, len(events))
	for i, e := range events {
		rows[i] = newEventRow(attemptID, e)
	}
	return tx.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "attempt_id"}, {Name: "seq"}},
		DoUpdates: clause.AssignmentColumns([]string{"at_ms", "type", "data"}),
	}).Create(&rows).Error
}

// refileRequests writes each step's requests, and how many failed, as the attempt's end
// files them (see agent.Step's Traffic).
func refileRequests(tx *gorm.DB, attempt uint, steps []agent.Step) error {
	for _, st := range steps {
		row := stepRow{Requests: st.Requests, FailedRequests: st.Summary().FailedRequests}
		err := tx.Model(&stepRow{}).Where("attempt_id = ? AND `index` = ?", attempt, st.Index).
			Select("requests", "failed_requests").Updates(&row).Error
		if err != nil {
			return err
		}
	}
	return nil
}
