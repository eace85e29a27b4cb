package store

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"observatory/backend/agent"
)

// A run is read in layers: its header first (Header: the run, its attempts with their
// verdicts and events, their steps counted and, for short attempts, summarised), then a long
// attempt's step summaries (Summaries), then the steps looked at, whole (Steps), or one
// attempt whole (Attempt) for what works on all of its evidence (replay, the ledger, a HAR).
// Only Get reads a whole run at once, for exports.

// InlineSteps is the most steps an attempt may have for the header to carry their summaries.
const InlineSteps = 200

// RunHeader is a run whose attempts are AttemptHeaders.
type RunHeader struct {
	agent.Run
	// Attempts stand in for the run's own, which stay empty; they shadow them in JSON.
	Attempts []AttemptHeader `json:"attempts"`
}

// AttemptHeader is an attempt without its steps: everything else (verdicts, events, answers,
// plan) is there, with its steps counted and, when there are at most InlineSteps of them,
// summarised.
type AttemptHeader struct {
	agent.Attempt
	// Steps are the step summaries of an attempt of at most InlineSteps steps, and nil for a
	// longer one (read them with Summaries). They stand in for the attempt's own steps, which
	// stay empty, and shadow them in JSON.
	Steps []agent.StepSummary `json:"steps"`
	// StepCount is how many steps the attempt has.
	StepCount int `json:"step_count"`
	// Turns counts the model turns of all its steps, and SaidDone is set when a model's done
	// call became one of its actions (see StepSummary).
	Turns    int  `json:"turns,omitempty"`
	SaidDone bool `json:"said_done,omitempty"`
}

// ErrNoAttempt means a run has no attempt of the slug asked for.
var ErrNoAttempt = errors.New("the run has no such attempt")

// noAttempt is an ErrNoAttempt naming the attempts the run has.
type noAttempt struct {
	run, slug string
	has       []string
}

func (e *noAttempt) Error() string {
	return fmt.Sprintf("run %s has no attempt %q: it has %s", e.run, e.slug, strings.Join(e.has, ", "))
}

func (e *noAttempt) Unwrap() error { return ErrNoAttempt }

// tallyQuery counts each attempt's steps, their model turns and whether one said done, for a
// run's attempts, from the step_summary index alone.
const tallyQuery = "SELECT `attempt_id`, COUNT(*), COALESCE(SUM(`turns`), 0), COALESCE(MAX(`said_done`), 0) " +
	"FROM `steps` WHERE `attempt_id` IN (SELECT `id` FROM `attempts` WHERE `run_id` = ?) GROUP BY `attempt_id`"

// summaryQuery lists the step summaries of attempts (their row ids), attempt by attempt in
// step order, from the step_summary index alone.
const summaryQuery = "SELECT `attempt_id`, `index`, `description`, `kind`, `target`, `value`, `class`, `admission`, `start_ms`, `duration_ms`, `failed`, `failed_requests`, `unchanged`, `shot`, `turns`, `said_done` " +
	"FROM `steps` WHERE `attempt_id` IN ? ORDER BY `attempt_id`, `index`"

// Header reads run id (a unique prefix is enough) with its attempts, their events and their
// steps counted, and summarised for the attempts of at most InlineSteps steps; no step itself.
func (s *Store) Header(id string) (RunHeader, error) {
	full, err := s.resolve(id)
	if err != nil {
		return RunHeader{}, err
	}
	var r runRow
	err = s.db.
		Preload("Attempts", func(db *gorm.DB) *gorm.DB { return db.Order("position") }).
		Preload("Attempts.Events", func(db *gorm.DB) *gorm.DB { return db.Order("seq") }).
		Where("id = ?", full).Take(&r).Error
	if err != nil {
		return RunHeader{}, fmt.Errorf("reading run %q: %w", full, err)
	}
	h := RunHeader{Run: r.run(), Attempts: make([]AttemptHeader, len(r.Attempts))}
	byRow := map[uint]*AttemptHeader{}
	for i, a := range r.Attempts {
		h.Attempts[i] = AttemptHeader{Attempt: a.attempt()}
		h.Attempts[i].Attempt.Steps = nil
		byRow[a.ID] = &h.Attempts[i]
	}
	if err := s.tally(full, byRow); err != nil {
		return RunHeader{}, fmt.Errorf("counting the steps of run %q: %w", full, err)
	}
	var short []uint
	for row, a := range byRow {
		if a.StepCount <= InlineSteps {
			short = append(short, row)
			a.Steps = []agent.StepSummary{}
		}
	}
	if len(short) == 0 {
		return h, nil
	}
	err = s.summaries(short, func(row uint, sum agent.StepSummary) { byRow[row].Steps = append(byRow[row].Steps, sum) })
	if err != nil {
		return RunHeader{}, fmt.Errorf("listing the steps of run %q: %w", full, err)
	}
	return h, nil
}

// tally counts the steps of run id's attempts into their headers, by attempt row.
func (s *Store) tally(id string, byRow map[uint]*AttemptHeader) error {
	rows, err := s.db.Raw(tallyQuery, id).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var row uint
		var count, turns int
		var said bool
		if err := rows.Scan(&row, &count, &turns, &said); err != nil {
			return err
		}
		if a := byRow[row]; a != nil {
			a.StepCount, a.Turns, a.SaidDone = count, turns, said
		}
	}
	return rows.Err()
}

// Summaries reads the summaries of every step of attempt slug of run id, in order, and no
// step itself: what a long attempt's step list and timeline show.
func (s *Store) Summaries(id, slug string) ([]agent.StepSummary, error) {
	full, err := s.resolve(id)
	if err != nil {
		return nil, err
	}
	row, err := s.attemptRowID(full, slug)
	if err != nil {
		return nil, err
	}
	out := []agent.StepSummary{}
	err = s.summaries([]uint{row}, func(_ uint, sum agent.StepSummary) { out = append(out, sum) })
	if err != nil {
		return nil, fmt.Errorf("listing the steps of attempt %q of run %q: %w", slug, full, err)
	}
	return out, nil
}

// summaries reads the step summaries of the attempts of the given rows, handing each to add
// in order.
func (s *Store) summaries(attempts []uint, add func(row uint, sum agent.StepSummary)) error {
	rows, err := s.db.Raw(summaryQuery, attempts).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var row uint
		var sum agent.StepSummary
		var kind, class, admission string
		err := rows.Scan(&row, &sum.Index, &sum.Description, &kind, &sum.Target, &sum.Value, &class, &admission,
			&sum.StartMS, &sum.DurationMS, &sum.Failed, &sum.FailedRequests, &sum.Unchanged, &sum.Shot, &sum.Turns, &sum.SaidDone)
		if err != nil {
			return err
		}
		sum.Kind, sum.Class, sum.Admission = agent.ActionKind(kind), agent.ActionClass(class), agent.Admission(admission)
		add(row, sum)
	}
	return rows.Err()
}

// Steps reads up to count steps of attempt slug of run id whole, in order from the one at
// position from (0 is the first); fewer, or none, past the attempt's end.
func (s *Store) Steps(id, slug string, from, count int) ([]agent.Step, error) {
	if from < 0 || count < 0 {
		return nil, fmt.Errorf("steps from %d, %d of them: neither may be negative", from, count)
	}
	full, err := s.resolve(id)
	if err != nil {
		return nil, err
	}
	attempt, err := s.attemptRowID(full, slug)
	if err != nil {
		return nil, err
	}
	out := []agent.Step{}
	if count == 0 {
		return out, nil
	}
	var rows []stepRow
	err = s.db.Where("attempt_id = ?", attempt).Order("`index`").Offset(from).Limit(count).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("reading steps of attempt %q of run %q: %w", slug, full, err)
	}
	for _, r := range rows {
		out = append(out, r.step())
	}
	return out, nil
}

// Attempt reads run id with attempt slug alone, whole: its steps and events in order.
func (s *Store) Attempt(id, slug string) (agent.Run, error) {
	full, err := s.resolve(id)
	if err != nil {
		return agent.Run{}, err
	}
	if _, err := s.attemptRowID(full, slug); err != nil {
		return agent.Run{}, err
	}
	var r runRow
	err = s.db.
		Preload("Attempts", "slug = ?", slug).
		Preload("Attempts.Steps", func(db *gorm.DB) *gorm.DB { return db.Order("`index`") }).
		Preload("Attempts.Events", func(db *gorm.DB) *gorm.DB { return db.Order("seq") }).
		Where("id = ?", full).Take(&r).Error
	if err != nil {
		return agent.Run{}, fmt.Errorf("reading attempt %q of run %q: %w", slug, full, err)
	}
	run := r.run()
	for _, a := range r.Attempts {
		run.Attempts = append(run.Attempts, a.attempt())
	}
	return run, nil
}

// Stamp tells a stored run from any other stored under the same id before or since (a run
// deleted and imported again is another), and says whether it may still change.
type Stamp struct {
	ID string
	// Added is when the run came into this history.
	Added  time.Time
	Status agent.RunStatus
}

// Stamp reads run id's stamp (a unique prefix is enough) without reading the run.
func (s *Store) Stamp(id string) (Stamp, error) {
	full, err := s.resolve(id)
	if err != nil {
		return Stamp{}, err
	}
	var r runRow
	if err := s.db.Select("id", "added", "status").Where("id = ?", full).Take(&r).Error; err != nil {
		return Stamp{}, fmt.Errorf("reading run %q: %w", full, err)
	}
	return Stamp{ID: r.ID, Added: r.Added, Status: agent.RunStatus(r.Status)}, nil
}

// attemptRowID finds the row of attempt slug of run id (a full id), or says which attempts
// the run has.
func (s *Store) attemptRowID(id, slug string) (uint, error) {
	var rows []attemptRow
	if err := s.db.Select("id", "slug").Where("run_id = ?", id).Order("position").Find(&rows).Error; err != nil {
		return 0, fmt.Errorf("reading the attempts of run %q: %w", id, err)
	}
	has := make([]string, len(rows))
	for i, r := range rows {
		if r.Slug == slug {
			return r.ID, nil
		}
		has[i] = r.Slug
	}
	return 0, &noAttempt{run: id, slug: slug, has: has}
}
