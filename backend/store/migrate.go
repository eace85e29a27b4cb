package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"observatory/backend/agent"
	"observatory/backend/runfile"
)

// A migration moves the database's schema, and the data in it, one version up. Versions are
// numbered from 1 and applied in order, each in one transaction with its version recorded,
// so a database opens at any version this build knows and upgrades in place.
type migration struct {
	version int
	name    string
	up      func(tx *gorm.DB) error
}

var migrations = []migration{
	{1, "runs, attempts, steps and events", createV1},
	{2, "tasks as data: named verdicts, attempt parameters, oracle answers", tasksAsData},
	{3, "the harness's and the planner's records on steps: guidance, approvals, reconciliation, model turns",
		addColumns("steps", "`guidance` text NOT NULL DEFAULT ''", "`approvals` text", "`reconciliation` text", "`model_turns` text")},
	{4, "the page's network requests, console messages and page errors on steps, and what the recording limits dropped",
		addColumns("steps", "`requests` text", "`console` text", "`page_errors` text", "`dropped` text")},
	{5, "where a step's target was, and a locator miss's nearest candidates",
		addColumns("steps", "`target_box` text", "`candidates` text")},
	{6, "a run's budgets (an attempt's own are in its config)",
		addColumns("runs", "`budgets` text")},
	{7, "the files a step uploaded or saved (a sample's unreadable regions live in its JSON)",
		addColumns("steps", "`transfers` text")},
	{8, "the address a run's lab listened on",
		addColumns("runs", "`lab_host` text NOT NULL DEFAULT ''")},
	{9, "a model planner's turns that led to no step, and steps whose target did not resolve",
		func(tx *gorm.DB) error {
			return errors.Join(addColumns("attempts", "`model_turns` text")(tx),
				addColumns("steps", "`unresolved` numeric NOT NULL DEFAULT false")(tx))
		}},
	{10, "what the browser logged around the error that ended an attempt",
		addColumns("attempts", "`browser_log` text NOT NULL DEFAULT ''")},
	{11, "steps' summaries and attempts' wrong verdicts kept beside them, in indexes that cover them",
		summaries},
	{12, "what the agent that drove an attempt claimed of it",
		addColumns("attempts", "`claim` text")},
	{13, "whether a step was proposed or observed (an outside agent's input)",
		addColumns("steps", "`provenance` text NOT NULL DEFAULT ''")},
	{14, "the viewport an attempt's page was opened at (a sample's viewport and screenshot size live in its JSON)",
		addColumns("attempts", "`viewport` text")},
	{15, "which trial of a repeated attempt each attempt is",
		addColumns("attempts", "`trial` integer NOT NULL DEFAULT 0")},
	{16, "the suite run each run is one task of",
		func(tx *gorm.DB) error {
			return errors.Join(addColumns("runs", "`suite_run` text NOT NULL DEFAULT ''")(tx),
				tx.Exec("CREATE INDEX `idx_runs_suite_run` ON `runs`(`suite_run`)").Error)
		}},
	{17, "the evidence level an attempt was recorded at (full or lean)",
		addColumns("attempts", "`evidence` text NOT NULL DEFAULT ''")},
	{18, "what a step's action returned to its agent (an agent's script's result)",
		addColumns("steps", "`output` text NOT NULL DEFAULT ''")},
	{19, "what checking an imported run's signature found",
		addColumns("runs", "`signature` text")},
	{20, "what an observed step's evidence cannot vouch for, and what an attempt's pages sent before an outside agent's first input",
		func(tx *gorm.DB) error {
			return errors.Join(addColumns("steps", "`evidence` text NOT NULL DEFAULT ''")(tx),
				addColumns("attempts", "`opening` text")(tx))
		}},
	{21, "a step's failed requests and whether its action changed nothing seen, beside its summary",
		failureMarks},
}

// addColumns is a migration that adds columns, each given as its SQL definition, to a table.
func addColumns(table string, columns ...string) func(tx *gorm.DB) error {
	return func(tx *gorm.DB) error {
		for _, c := range columns {
			if err := tx.Exec("ALTER TABLE `" + table + "` ADD COLUMN " + c).Error; err != nil {
				return err
			}
		}
		return nil
	}
}

// migrationRow records an applied migration.
type migrationRow struct {
	Version int       `gorm:"primaryKey;autoIncrement:false"`
	Name    string    `gorm:"not null"`
	Applied time.Time `gorm:"not null"`
}

func (migrationRow) TableName() string { return "schema_migrations" }

// migrate applies every migration the database has not had. A database written before
// migrations were numbered has none recorded, and goes through all of them: the first only
// completes what it finds. A database from a newer build is refused rather than misread.
func migrate(db *gorm.DB) error {
	if err := db.AutoMigrate(&migrationRow{}); err != nil {
		return err
	}
	var current int
	if err := db.Model(&migrationRow{}).Select("COALESCE(MAX(version), 0)").Scan(&current).Error; err != nil {
		return err
	}
	if latest := migrations[len(migrations)-1].version; current > latest {
		return fmt.Errorf("the database is at schema version %d, newer than this build's %d: use a newer Observatory", current, latest)
	}
	for _, mg := range migrations {
		if mg.version <= current {
			continue
		}
		err := db.Transaction(func(tx *gorm.DB) error {
			if err := mg.up(tx); err != nil {
				return err
			}
			return tx.Create(&migrationRow{Version: mg.version, Name: mg.name, Applied: time.Now().UTC()}).Error
		})
		if err != nil {
			return fmt.Errorf("migration %d (%s): %w", mg.version, mg.name, err)
		}
	}
	return nil
}

// v1Tables are the first version's tables, as it created them, in dependency order.
var v1Tables = []struct{ name, create string }{
	{"runs", "CREATE TABLE `runs` (`id` text,`lab` text NOT NULL,`created` datetime NOT NULL,`status` text NOT NULL,`source` text NOT NULL,`writer` text NOT NULL DEFAULT \"\",PRIMARY KEY (`id`))"},
	{"attempts", "CREATE TABLE `attempts` (`id` integer PRIMARY KEY AUTOINCREMENT,`run_id` text NOT NULL,`slug` text NOT NULL,`position` integer NOT NULL,`title` text NOT NULL,`task` text,`config` text,`plan` text,`terminal` text NOT NULL,`reason` text NOT NULL,`verdicts` text,`started` datetime,`video` text NOT NULL,`trace` text NOT NULL DEFAULT \"\",CONSTRAINT `fk_runs_attempts` FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON DELETE CASCADE)"},
	{"steps", "CREATE TABLE `steps` (`id` integer PRIMARY KEY AUTOINCREMENT,`attempt_id` integer NOT NULL,`index` integer NOT NULL,`action` text,`decision` text,`resolved` text NOT NULL,`before` text,`after` text,`distance` real NOT NULL,`start_ms` integer NOT NULL,`duration_ms` integer NOT NULL,`error` text NOT NULL,CONSTRAINT `fk_attempts_steps` FOREIGN KEY (`attempt_id`) REFERENCES `attempts`(`id`) ON DELETE CASCADE)"},
	{"events", "CREATE TABLE `events` (`id` integer PRIMARY KEY AUTOINCREMENT,`attempt_id` integer NOT NULL,`seq` integer NOT NULL,`at_ms` integer NOT NULL,`type` text NOT NULL,`data` text,CONSTRAINT `fk_attempts_events` FOREIGN KEY (`attempt_id`) REFERENCES `attempts`(`id`) ON DELETE CASCADE)"},
}

// v1Late are the columns the first version added to tables it had already created.
var v1Late = []struct{ table, column, add string }{
	{"runs", "writer", "ALTER TABLE `runs` ADD COLUMN `writer` text NOT NULL DEFAULT ''"},
	{"attempts", "trace", "ALTER TABLE `attempts` ADD COLUMN `trace` text NOT NULL DEFAULT ''"},
}

// v1Indexes are the first version's indexes.
var v1Indexes = []string{
	"CREATE INDEX IF NOT EXISTS `idx_runs_status` ON `runs`(`status`)",
	"CREATE INDEX IF NOT EXISTS `idx_runs_created` ON `runs`(`created`)",
	"CREATE UNIQUE INDEX IF NOT EXISTS `attempt_run_slug` ON `attempts`(`run_id`,`slug`)",
	"CREATE UNIQUE INDEX IF NOT EXISTS `step_attempt_index` ON `steps`(`attempt_id`,`index`)",
	"CREATE UNIQUE INDEX IF NOT EXISTS `event_attempt_seq` ON `events`(`attempt_id`,`seq`)",
}

// createV1 brings the tables to the first version's schema: it creates the tables that are
// missing and adds the columns the first version grew later, so a database from any build
// before numbered migrations upgrades the same way. It never rebuilds a table: SQLite would
// drop and copy it, and the cascade would take the rows that hang off it.
func createV1(tx *gorm.DB) error {
	m := tx.Migrator()
	for _, t := range v1Tables {
		if !m.HasTable(t.name) {
			if err := tx.Exec(t.create).Error; err != nil {
				return err
			}
		}
	}
	for _, c := range v1Late {
		var n int
		if err := tx.Raw("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", c.table, c.column).Scan(&n).Error; err != nil {
			return err
		}
		if n == 0 {
			if err := tx.Exec(c.add).Error; err != nil {
				return err
			}
		}
	}
	for _, idx := range v1Indexes {
		if err := tx.Exec(idx).Error; err != nil {
			return err
		}
	}
	return nil
}

// tasksAsData renames a run's lab to its task and adds the task document and the time it
// joined the history; gives attempts their fault, parameters and oracle answers, and steps
// the planner's reason and blocked requests; and rewrites version 1's attempt values as the
// domain now has them: the reservation task as an intent, the save latency as a parameter,
// the four verdict columns as ground truth and named signals.
func tasksAsData(tx *gorm.DB) error {
	for _, stmt := range []string{
		"ALTER TABLE `runs` RENAME COLUMN `lab` TO `task`",
		"ALTER TABLE `runs` ADD COLUMN `spec` text NOT NULL DEFAULT ''",
		"ALTER TABLE `runs` ADD COLUMN `added` datetime NOT NULL DEFAULT '1970-01-01 00:00:00+00:00'",
		"UPDATE `runs` SET `added` = `created`",
		"CREATE INDEX `idx_runs_added` ON `runs`(`added`)",
		"ALTER TABLE `attempts` ADD COLUMN `fault` text NOT NULL DEFAULT ''",
		"ALTER TABLE `attempts` ADD COLUMN `params` text",
		"ALTER TABLE `attempts` ADD COLUMN `answers` text",
		"ALTER TABLE `steps` ADD COLUMN `reason` text NOT NULL DEFAULT ''",
		"ALTER TABLE `steps` ADD COLUMN `blocked` text",
	} {
		if err := tx.Exec(stmt).Error; err != nil {
			return err
		}
	}
	var rows []struct {
		ID       uint
		Task     string
		Config   string
		Verdicts string
		RunTask  string
	}
	err := tx.Raw("SELECT a.id, a.task, a.config, a.verdicts, r.task AS run_task FROM attempts a JOIN runs r ON r.id = a.run_id").Scan(&rows).Error
	if err != nil {
		return err
	}
	for _, r := range rows {
		up, err := upgradeAttempt(r.RunTask, r.Task, r.Config, r.Verdicts)
		if err != nil {
			return fmt.Errorf("attempt row %d: %w", r.ID, err)
		}
		if err := tx.Table("attempts").Where("id = ?", r.ID).Updates(up).Error; err != nil {
			return err
		}
	}
	return nil
}

// upgradeAttempt rewrites one version 1 attempt's task, config and verdicts JSON.
func upgradeAttempt(lab, task, config, verdicts string) (map[string]any, error) {
	var t struct{ Title, Room string }
	var c struct {
		agent.Config
		LatencyMS *int `json:"latency_ms"`
	}
	var v struct {
		SavedAsAsked agent.Verdict `json:"saved_as_asked"`
		Notice       agent.Verdict `json:"notice"`
		Parallax     agent.Verdict `json:"parallax"`
		Gate         agent.Gate    `json:"gate"`
	}
	for _, f := range []struct {
		text string
		into any
	}{{task, &t}, {config, &c}, {verdicts, &v}} {
		if f.text == "" {
			continue
		}
		if err := json.Unmarshal([]byte(f.text), f.into); err != nil {
			return nil, err
		}
	}
	up := map[string]any{}
	enc := func(col string, val any) error {
		b, err := json.Marshal(val)
		up[col] = string(b)
		return err
	}
	newTask := agent.Task{Name: lab, Intent: runfile.V1Intent(t.Title, t.Room), StartURL: "/"}
	if err := enc("task", newTask); err != nil {
		return nil, err
	}
	if err := enc("config", c.Config); err != nil {
		return nil, err
	}
	if c.LatencyMS != nil {
		if err := enc("params", map[string]int{"latency_ms": *c.LatencyMS}); err != nil {
			return nil, err
		}
	}
	if err := enc("verdicts", runfile.V1Verdicts(v.SavedAsAsked, v.Notice, v.Parallax, v.Gate)); err != nil {
		return nil, err
	}
	return up, nil
}
