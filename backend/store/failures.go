package store

import (
	"encoding/json"
	"fmt"

	"gorm.io/gorm"

	"observatory/backend/agent"
)

// stepSummaryIndex covers every summary column of a step row (see summaryIndexes), the
// failure marks of version 21 included.
const stepSummaryIndex = "CREATE INDEX `step_summary` ON `steps`(`attempt_id`, `index`, `description`, `kind`, `target`, `value`, `class`, `admission`, `start_ms`, `duration_ms`, `failed`, `failed_requests`, `unchanged`, `shot`, `turns`, `said_done`)"

// failureMarks adds the step summary's failure marks (how many of its requests failed, and
// whether its action changed nothing seen), fills them for the rows already stored from the
// same Step.Summary the writers use, and widens the covering index to them.
func failureMarks(tx *gorm.DB) error {
	err := addColumns("steps", "`failed_requests` integer NOT NULL DEFAULT 0", "`unchanged` numeric NOT NULL DEFAULT false")(tx)
	if err != nil {
		return err
	}
	var last uint
	for {
		var rows []struct {
			ID         uint
			Action     []byte
			Requests   []byte
			Error      string
			Distance   float64
			Unresolved bool
			Provenance string
		}
		err := tx.Raw("SELECT `id`, `action`, `requests`, `error`, `distance`, `unresolved`, `provenance` FROM `steps` WHERE `id` > ? ORDER BY `id` LIMIT ?",
			last, backfillBatch).Scan(&rows).Error
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			break
		}
		for _, r := range rows {
			st := agent.Step{Error: r.Error, Distance: r.Distance, Unresolved: r.Unresolved, Provenance: agent.Provenance(r.Provenance)}
			for _, f := range []struct {
				text []byte
				into any
			}{{r.Action, &st.Action}, {r.Requests, &st.Requests}} {
				if len(f.text) == 0 || string(f.text) == "null" {
					continue
				}
				if err := json.Unmarshal(f.text, f.into); err != nil {
					return fmt.Errorf("step row %d: %w", r.ID, err)
				}
			}
			sum := st.Summary()
			if sum.FailedRequests == 0 && !sum.Unchanged {
				continue
			}
			if err := tx.Exec("UPDATE `steps` SET `failed_requests` = ?, `unchanged` = ? WHERE `id` = ?", sum.FailedRequests, sum.Unchanged, r.ID).Error; err != nil {
				return err
			}
		}
		last = rows[len(rows)-1].ID
	}
	if err := tx.Exec("DROP INDEX IF EXISTS `step_summary`").Error; err != nil {
		return err
	}
	return tx.Exec(stepSummaryIndex).Error
}
