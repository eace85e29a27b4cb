// Package trackertest serves a small issue tracker for tests: a page listing issues with a
// "New issue" form and a "Close" button per open issue, a JSON API, and storage in a SQLite
// file or a PostgreSQL database. It is an ordinary app, not a lab: it keeps no event log and
// knows nothing of gates. Its one bug, on demand, is the usual one: with RefuseWrites the
// API refuses every write while the page, which never reads the answer's status, still says
// "Saved".
package trackertest

import (
	"context"
	"database/sql"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	_ "github.com/mattn/go-sqlite3"    // the "sqlite3" driver
)

//go:embed page.html
var page []byte

// Options choose the tracker's storage and behaviour.
type Options struct {
	// SQLite is the database file, created when missing; used when DSN is empty.
	SQLite string
	// DSN is a PostgreSQL connection string.
	DSN string
	// RefuseWrites makes the API answer every write with 503 and store nothing.
	RefuseWrites bool
	// Seed are titles of open issues the tracker starts with, after emptying the store.
	Seed []string
}

// Issue is one issue as the API shows it.
type Issue struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
	State string `json:"state"`
}

// Server is a running tracker on 127.0.0.1.
type Server struct {
	// URL is the tracker's address, ending in a slash.
	URL string

	db       *sql.DB
	postgres bool
	refuse   bool
	srv      *http.Server
}

// Start opens the store, creates its table, seeds it and serves the tracker.
func Start(opts Options) (*Server, error) {
	s := &Server{postgres: opts.DSN != "", refuse: opts.RefuseWrites}
	var err error
	if s.postgres {
		s.db, err = sql.Open("pgx", opts.DSN)
	} else {
		s.db, err = sql.Open("sqlite3", "file:"+opts.SQLite+"?_busy_timeout=2000&_journal_mode=WAL")
	}
	if err != nil {
		return nil, fmt.Errorf("tracker: open the store: %w", err)
	}
	if err := s.prepare(opts.Seed); err != nil {
		s.db.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.db.Close()
		return nil, fmt.Errorf("tracker: listen: %w", err)
	}
	s.URL = "http://" + ln.Addr().String() + "/"
	s.srv = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.srv.Serve(ln) }() // ends with http.ErrServerClosed on Close
	return s, nil
}

// Close stops serving and closes the store.
func (s *Server) Close() error {
	return errors.Join(s.srv.Close(), s.db.Close())
}

func (s *Server) prepare(seed []string) error {
	id := "integer primary key autoincrement"
	if s.postgres {
		id = "serial primary key"
	}
	stmts := []string{
		"create table if not exists issues (id " + id + ", title text not null, state text not null default 'open')",
		"delete from issues",
	}
	for _, q := range stmts {
		if _, err := s.db.Exec(q); err != nil {
			return fmt.Errorf("tracker: prepare the store: %w", err)
		}
	}
	for _, title := range seed {
		if _, err := s.db.Exec(s.bind("insert into issues (title) values (?)"), title); err != nil {
			return fmt.Errorf("tracker: seed the store: %w", err)
		}
	}
	return nil
}

// bind writes a query's ? placeholders as the store's driver wants them.
func (s *Server) bind(q string) string {
	if !s.postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})
	mux.HandleFunc("GET /api/issues", s.list)
	mux.HandleFunc("POST /api/issues", s.create)
	mux.HandleFunc("POST /api/issues/{id}/close", s.close)
	return mux
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	rows, err := s.db.QueryContext(r.Context(), "select id, title, state from issues order by id")
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	defer rows.Close()
	issues := []Issue{}
	for rows.Next() {
		var i Issue
		if err := rows.Scan(&i.ID, &i.Title, &i.State); err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			return
		}
		issues = append(issues, i)
	}
	writeJSON(w, http.StatusOK, issues)
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Title string `json:"title"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 16<<10)).Decode(&in); err != nil || strings.TrimSpace(in.Title) == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "give a title"})
		return
	}
	if s.refused(w) {
		return
	}
	if _, err := s.db.ExecContext(r.Context(), s.bind("insert into issues (title) values (?)"), in.Title); err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"title": in.Title})
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such issue"})
		return
	}
	if s.refused(w) {
		return
	}
	res, err := s.db.ExecContext(r.Context(), s.bind("update issues set state = 'closed' where id = ?"), id)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such issue"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]int64{"closed": id})
}

// refused answers a write with 503 when the tracker refuses writes.
func (s *Server) refused(w http.ResponseWriter) bool {
	if s.refuse {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "writes are refused: the store is read-only"})
	}
	return s.refuse
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Issues lists the stored issues, for tests that check the store directly.
func (s *Server) Issues(ctx context.Context) ([]Issue, error) {
	rows, err := s.db.QueryContext(ctx, "select id, title, state from issues order by id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Issue
	for rows.Next() {
		var i Issue
		if err := rows.Scan(&i.ID, &i.Title, &i.State); err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	return out, rows.Err()
}
