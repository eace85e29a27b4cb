package store

import (
	"encoding/json"
	"fmt"

	"gorm.io/gorm"

	"observatory/backend/agent"
)

// Each step row carries its summary (agent.StepSummary) in columns of its own, and each
// attempt row whether a verdict is wrong, written with them. Two indexes cover these, so a
// run's steps list (Header) and the history counts its attempts (List) from the indexes
// alone, never reading a sample, a verdict or any other JSON of the rows.

// summaryIndexes cover the step summaries and the history's per-attempt tallies.
var summaryIndexes = []string{
	"CREATE INDEX `step_summary` ON `steps`(`attempt_id`, `index`, `description`, `kind`, `target`, `value`, `class`, `admission`, `start_ms`, `duration_ms`, `failed`, `shot`, `turns`, `said_done`)",
	"CREATE INDEX `attempt_tally` ON `attempts`(`run_id`, `terminal`, `wrong`)",
}

// backfillBatch is how many rows the summaries migration reads at a time.
const backfillBatch = 1000

// summaries adds the summary columns, fills them for the rows already stored, from the same
// Step.Summary the writers use, and creates the indexes that cover them.
func summaries(tx *gorm.DB) error {
	err := addColumns("steps", "`description` text NOT NULL DEFAULT ''", "`kind` text NOT NULL DEFAULT ''",
		"`target` text NOT NULL DEFAULT ''", "`value` text NOT NULL DEFAULT ''",
		"`class` text NOT NULL DEFAULT ''", "`admission` text NOT NULL DEFAULT ''",
		"`failed` numeric NOT NULL DEFAULT false", "`shot` text NOT NULL DEFAULT ''",
		"`turns` integer NOT NULL DEFAULT 0", "`said_done` numeric NOT NULL DEFAULT false")(tx)
	if err != nil {
		return err
	}
	if err := addColumns("attempts", "`wrong` numeric NOT NULL DEFAULT false")(tx); err != nil {
		return err
	}
	if err := backfillSteps(tx); err != nil {
		return err
	}
	if err := backfillAttempts(tx); err != nil {
		return err
	}
	for _, idx := range summaryIndexes {
		if err := tx.Exec(idx).Error; err != nil {
			return err
		}
	}
	return nil
}

// storedStep is what a step's summary is worked out from, as stored.
type storedStep struct {
	ID         uint
	Action     []byte
	Decision   []byte
	Before     []byte
	After      []byte
	Error      string
	ModelTurns []byte
}

// backfillSteps fills every stored step's summary columns.
func backfillSteps(tx *gorm.DB) error {
	var last uint
	for {
		var rows []storedStep
		err := tx.Raw("SELECT `id`, `action`, `decision`, `before`, `after`, `error`, `model_turns` FROM `steps` WHERE `id` > ? ORDER BY `id` LIMIT ?",
			last, backfillBatch).Scan(&rows).Error
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return nil
		}
		for _, r := range rows {
			sum, err := r.summary()
			if err != nil {
				return fmt.Errorf("step row %d: %w", r.ID, err)
			}
			err = tx.Exec("UPDATE `steps` SET `description` = ?, `kind` = ?, `target` = ?, `value` = ?, "+
				"`class` = ?, `admission` = ?, `failed` = ?, `shot` = ?, `turns` = ?, `said_done` = ? WHERE `id` = ?",
				sum.Description, string(sum.Kind), sum.Target, sum.Value,
				string(sum.Class), string(sum.Admission), sum.Failed, sum.Shot, sum.Turns, sum.SaidDone, r.ID).Error
			if err != nil {
				return err
			}
		}
		last = rows[len(rows)-1].ID
	}
}

// summary decodes what the summary needs of the stored step (a sample only for its
// screenshot) and summarises it.
func (r storedStep) summary() (agent.StepSummary, error) {
	var st agent.Step
	var before, after struct {
		Screenshot string `json:"screenshot"`
	}
	for _, f := range []struct {
		text []byte
		into any
	}{{r.Action, &st.Action}, {r.Decision, &st.Decision}, {r.Before, &before}, {r.After, &after}, {r.ModelTurns, &st.ModelTurns}} {
		if len(f.text) == 0 {
			continue
		}
		if err := json.Unmarshal(f.text, f.into); err != nil {
			return agent.StepSummary{}, err
		}
	}
	st.Before.Screenshot, st.After.Screenshot, st.Error = before.Screenshot, after.Screenshot, r.Error
	return st.Summary(), nil
}

// backfillAttempts sets every stored attempt's wrong flag from its verdicts.
func backfillAttempts(tx *gorm.DB) error {
	var rows []struct {
		ID       uint
		Verdicts []byte
	}
	if err := tx.Raw("SELECT `id`, `verdicts` FROM `attempts`").Scan(&rows).Error; err != nil {
		return err
	}
	for _, r := range rows {
		var v agent.Verdicts
		if len(r.Verdicts) > 0 {
			if err := json.Unmarshal(r.Verdicts, &v); err != nil {
				return fmt.Errorf("attempt row %d: %w", r.ID, err)
			}
		}
		if err := tx.Exec("UPDATE `attempts` SET `wrong` = ? WHERE `id` = ?", anyWrong(v), r.ID).Error; err != nil {
			return err
		}
	}
	return nil
}
