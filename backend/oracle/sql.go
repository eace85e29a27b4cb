package oracle

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/mattn/go-sqlite3"

	"observatory/backend/agent"
)

// SQL drivers a condition may name.
const (
	DriverSQLite   = "sqlite"
	DriverPostgres = "postgres"
	// DriverMySQL reads MySQL and MariaDB.
	DriverMySQL = "mysql"
)

// sqliteDriver names the driver SQLite conditions open their databases with: go-sqlite3's,
// with ATTACH refused, so a query reaches only the file the condition names and cannot create
// another (ATTACH of a missing file creates it, even on a read-only connection).
const sqliteDriver = "sqlite3-oracle"

func init() {
	sql.Register(sqliteDriver, &sqlite3.SQLiteDriver{ConnectHook: refuseAttach})
}

// SQL runs a query in a read-only transaction and judges its rows with a CEL expression over
// rows (a list of maps from column name to value).
type SQL struct {
	driver string
	// path is the SQLite file; dsnEnv names the variable holding PostgreSQL's or MySQL's DSN.
	path   string
	dsnEnv string
	query  string
	celCheck
	// limit bounds the rows an answer keeps, in bytes (see scanRows).
	limit int
}

// NewSQL compiles an SQL condition: driver sqlite with the database file's path, or postgres
// or mysql with the name of the environment variable that holds the DSN. Errors are
// *FieldError.
func NewSQL(driver, path, dsnEnv, query, expr string) (*SQL, error) {
	switch driver {
	case DriverSQLite:
		if path == "" || dsnEnv != "" {
			return nil, fieldErr("path", "an sqlite condition gives path (the database file) and no dsn_env")
		}
	case DriverPostgres, DriverMySQL:
		if dsnEnv == "" || path != "" {
			return nil, fieldErr("dsn_env", "a %s condition gives dsn_env (the variable holding the DSN) and no path", driver)
		}
		if _, err := EnvRefs("${" + dsnEnv + "}"); err != nil || len(dsnEnv) > 128 {
			return nil, fieldErr("dsn_env", "%q is not an environment variable name", dsnEnv)
		}
	default:
		return nil, fieldErr("driver", "%q: want %s, %s or %s", driver, DriverSQLite, DriverPostgres, DriverMySQL)
	}
	if query == "" {
		return nil, fieldErr("query", "give the query to run")
	}
	e, err := compile(sqlEnv, expr)
	if err != nil {
		return nil, fieldErr("expr", "%v", err)
	}
	return &SQL{driver: driver, path: path, dsnEnv: dsnEnv, query: query, celCheck: celCheck{e}, limit: maxRowBytes}, nil
}

// WithEvidence sets the bound on the rows an answer keeps, in KiB (0 keeps the default, 64
// KiB): a query whose rows are over it cannot confirm. Errors are *FieldError.
func (s *SQL) WithEvidence(kib int) (*SQL, error) {
	if kib < 0 || kib > MaxEvidenceKiB {
		return nil, fieldErr("evidence_kib", "%d: want 1 to %d", kib, MaxEvidenceKiB)
	}
	if kib > 0 {
		s.limit = kib << 10
	}
	return s, nil
}

// Kind is KindSQL.
func (*SQL) Kind() string { return KindSQL }

// Env lists the environment variable holding the DSN, if any.
func (s *SQL) Env() []string {
	if s.dsnEnv == "" {
		return nil
	}
	return []string{s.dsnEnv}
}

// sqlAnswer is an SQL condition's raw answer.
type sqlAnswer struct {
	Columns []string         `json:"columns"`
	Rows    []map[string]any `json:"rows"`
	// Truncated means the query returned more than MaxRows rows, or more than evidence keeps.
	Truncated bool `json:"truncated,omitempty"`
}

// source is the driver name and DSN to open.
func (s *SQL) source(r *round) (driver, dsn string, err error) {
	if s.driver == DriverSQLite {
		abs, err := filepath.Abs(s.path)
		if err != nil {
			return "", "", err
		}
		// Read-only: an oracle never changes the state it judges.
		return sqliteDriver, "file:" + (&url.URL{Path: abs}).EscapedPath() + "?mode=ro&_busy_timeout=1000", nil
	}
	dsn, ok := r.rd.site.LookupEnv(s.dsnEnv)
	if !ok || dsn == "" {
		return "", "", fmt.Errorf("environment variable %s (the %s DSN) is not set", s.dsnEnv, s.driver)
	}
	if s.driver == DriverMySQL {
		dsn, err := mysqlDSN(dsn)
		return "mysql", dsn, err
	}
	return "pgx", dsn, nil
}

// mysqlDSN is dsn with the oracle's own limits: timeouts for connecting, reading and writing
// within the query's, one statement per query, and no file of this machine sent to the server.
func mysqlDSN(dsn string) (string, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		// The driver's parse errors never quote the DSN; the message stays free of secrets.
		return "", fmt.Errorf("the MySQL DSN: %w", err)
	}
	for _, t := range []*time.Duration{&cfg.Timeout, &cfg.ReadTimeout, &cfg.WriteTimeout} {
		if *t <= 0 || *t > queryTimeout {
			*t = queryTimeout
		}
	}
	cfg.MultiStatements, cfg.AllowAllFiles = false, false
	return cfg.FormatDSN(), nil
}

func (s *SQL) ask(ctx context.Context, r *round) (json.RawMessage, error) {
	driver, dsn, err := s.source(r)
	if err != nil {
		return nil, err
	}
	// The DSN's password is a secret apart from the DSN: a row or an error may show it alone.
	secrets := append(slices.Clone(r.rd.site.Secrets), dsnPassword(driver, dsn))
	raw, err := s.run(ctx, r, driver, dsn, secrets)
	if err != nil {
		return nil, errors.New(redactString(err.Error(), secrets))
	}
	return raw, nil
}

// dsnPassword is the password a PostgreSQL or MySQL DSN holds, or "".
func dsnPassword(driver, dsn string) string {
	switch driver {
	case "mysql":
		if cfg, err := mysql.ParseDSN(dsn); err == nil {
			return cfg.Passwd
		}
	case "pgx":
		if cfg, err := pgx.ParseConfig(dsn); err == nil {
			return cfg.Password
		}
	}
	return ""
}

// run runs the condition's query and reads its rows, secrets masked.
func (s *SQL) run(ctx context.Context, r *round, driver, dsn string, secrets []string) (json.RawMessage, error) {
	db, err := r.rd.db(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("opening the %s database: %w", s.driver, err)
	}
	ctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.driver, err)
	}
	defer conn.Close()
	if s.driver == DriverMySQL {
		// A read-only transaction alone would let DDL through: MySQL commits the transaction
		// before a CREATE or DROP and runs it outside. A read-only session refuses it too.
		if _, err := conn.ExecContext(ctx, "SET SESSION TRANSACTION READ ONLY"); err != nil {
			return nil, fmt.Errorf("%s: making the session read-only: %w", s.driver, err)
		}
	}
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.driver, err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only; nothing to keep
	rows, err := tx.QueryContext(ctx, s.query)
	if err != nil {
		return nil, fmt.Errorf("%s query: %w", s.driver, err)
	}
	defer rows.Close()
	a, err := scanRows(rows, secrets, s.limit)
	if err != nil {
		return nil, fmt.Errorf("%s query: %w", s.driver, err)
	}
	return encode(a)
}

// scanRows reads at most MaxRows rows, and at most about limit bytes of them (and notes
// more), as plain values.
func scanRows(rows *sql.Rows, secrets []string, limit int) (sqlAnswer, error) {
	cols, err := rows.Columns()
	if err != nil {
		return sqlAnswer{}, err
	}
	a := sqlAnswer{Columns: cols, Rows: []map[string]any{}}
	size := 0
	for rows.Next() {
		if len(a.Rows) == MaxRows {
			a.Truncated = true
			break
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return sqlAnswer{}, err
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			row[c] = redact(cell(vals[i]), secrets)
			if secretMember.MatchString(c) && row[c] != nil { // a password column, a token
				row[c] = Mask
			}
			if s, ok := row[c].(string); ok {
				size += len(s)
			}
			size += 8
		}
		if size > limit { // the answer keeps no row past its bound
			a.Truncated = true
			break
		}
		a.Rows = append(a.Rows, row)
	}
	return a, rows.Err()
}

// cell turns a driver's value into a plain JSON value: numbers, text, booleans, null; times
// as RFC 3339 text; a number JSON cannot hold (NaN, ±Inf) as its text.
func cell(v any) any {
	switch x := v.(type) {
	case nil, bool, string, int64:
		return x
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case int8:
		return int64(x)
	case float32:
		return cell(float64(x))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		return x
	case []byte:
		return string(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprint(v)
}

// Judge evaluates the expression on recorded rows.
func (s *SQL) Judge(raw json.RawMessage) agent.Verdict { return s.withCheck(s.judge(raw)) }

func (s *SQL) judge(raw json.RawMessage) agent.Verdict {
	var a struct {
		Rows      json.RawMessage `json:"rows"`
		Truncated bool            `json:"truncated"`
	}
	if err := unmarshalAnswer(raw, &a); err != nil {
		return agent.Unconfirmed(err.Error())
	}
	if a.Truncated {
		return agent.Unconfirmed(fmt.Sprintf("the query returned more than %d rows (or %d KiB), more than evidence keeps; aggregate in SQL, or raise evidence_kib", MaxRows, s.limit>>10))
	}
	v, err := decodeJSON(a.Rows)
	rows, ok := v.([]any)
	if err != nil || !ok {
		return agent.Unconfirmed("the recorded rows are not a list")
	}
	for _, row := range rows {
		if _, ok := row.(map[string]any); !ok {
			return agent.Unconfirmed("a recorded row is not an object")
		}
	}
	got, err := s.expr.verdict(map[string]any{"rows": rows}, fmt.Sprintf("%d row(s)", len(rows)))
	if err != nil {
		return agent.Unconfirmed(err.Error())
	}
	return got
}
