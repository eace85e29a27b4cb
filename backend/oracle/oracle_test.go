package oracle

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/internal/mariadbtest"
)

func TestCompileRefusesBadExpressions(t *testing.T) {
	tests := []struct {
		expr, want string
	}{
		{`bdy.ok == true`, "undeclared reference to 'bdy' (column 1)"},
		{`status`, "the expression gives int, want bool"},
		{`body.ok`, "the expression gives dyn, want bool"},
		{`status ==`, "Syntax error"},
		{``, "give a CEL expression"},
		{strings.Repeat("1 + ", 2000) + "1 == 2", "expression code point size exceeds limit"},
	}
	for _, tt := range tests {
		_, err := NewHTTP("", "/x", nil, tt.expr)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "expr: ") {
			t.Errorf("NewHTTP(%.40q) = %v, want an expr error containing %q", tt.expr, err, tt.want)
		}
	}
	if _, err := NewSQL(DriverSQLite, "db", "", "select 1", `size(rows) == 1 && rows[0].n > 0`); err != nil {
		t.Errorf("a good sql expression is refused: %v", err)
	}
}

// TestBoundsEndARunawayExpression: 27 million comparisons end at CEL's cost limit, which
// decides whatever the load (so an import judges alike), long before the wall-time net.
func TestBoundsEndARunawayExpression(t *testing.T) {
	h, err := NewHTTP("", "/x", nil, `body.all(a, body.all(b, body.all(c, a + b + c >= 0)))`)
	if err != nil {
		t.Fatal(err)
	}
	big := make([]int, 300)
	body, _ := json.Marshal(big)
	raw, _ := json.Marshal(httpAnswer{Status: 200, ContentType: "application/json", Body: body})
	start := time.Now()
	v := h.Judge(raw)
	if v.Done || !strings.Contains(v.Unconfirmed, "cost limit exceeded") || time.Since(start) > evalTimeout {
		t.Errorf("a runaway expression gave %+v after %v, want could not confirm within its bounds", v, time.Since(start))
	}
}

// serve answers every request with status, content type and body, counting requests.
func serve(t *testing.T, status int, ctype, body string) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if tok := r.Header.Get("X-Token"); tok != "" {
			body = strings.ReplaceAll(body, "$TOKEN", tok)
		}
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func reader(t *testing.T, base string, env map[string]string) *Reader {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	for _, v := range env {
		secrets = append(secrets, v)
	}
	rd := NewReader(Site{Base: u, Origins: []string{Origin(u)}, Secrets: secrets,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	t.Cleanup(func() { rd.Close() })
	return rd
}

// verdict asks one condition and judges its answer, as a live check does.
func verdict(t *testing.T, rd *Reader, c Check, observe agent.Observer) (agent.Verdict, agent.Answer) {
	t.Helper()
	cond := Condition{ID: "c", Label: "c", Check: c}
	a := rd.Ask(context.Background(), []Condition{cond}, observe)[0]
	return Judge(cond, &a), a
}

func TestHTTPConditions(t *testing.T) {
	long := `"` + strings.Repeat("x", MaxBody) + `"`
	tests := []struct {
		name              string
		status            int
		ctype, body, expr string
		done              bool
		unconfirmed       string // "" when the condition is confirmed either way
	}{
		{"json holds", 200, "application/json", `{"items":[{"id":1,"state":"open"}]}`, `status == 200 && body.items.exists(i, i.id == 1 && i.state == "open")`, true, ""},
		{"json does not hold", 200, "application/json; charset=utf-8", `{"items":[]}`, `size(body.items) > 0`, false, ""},
		{"problem+json is json", 404, "application/problem+json", `{"title":"gone"}`, `status == 404 && body.title == "gone"`, true, ""},
		{"text body is a string", 200, "text/plain", `all good`, `body.contains("good")`, true, ""},
		{"bad json", 200, "application/json", `{"items":`, `status == 200`, false, "says it is JSON but is not"},
		{"over the evidence limit", 200, "application/json", long, `status == 200`, false, "over 16 KiB"},
		{"missing key", 200, "application/json", `{}`, `body.items.size() == 0`, false, "no such key"},
		{"numbers compare across types", 200, "application/json", `{"n":3,"f":2.5}`, `body.n == 3 && body.f > 2 && body.n > body.f`, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serve(t, tt.status, tt.ctype, tt.body)
			h, err := NewHTTP("GET", "/api", nil, tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			v, a := verdict(t, reader(t, srv.URL, nil), h, nil)
			if v.Done != tt.done || !strings.Contains(v.Unconfirmed, tt.unconfirmed) || (tt.unconfirmed == "") != (v.Unconfirmed == "") {
				t.Errorf("verdict %+v, want done=%v unconfirmed containing %q", v, tt.done, tt.unconfirmed)
			}
			if len(a.Raw) > MaxBody+1024 {
				t.Errorf("the answer is %d bytes, over the evidence bound", len(a.Raw))
			}
			if again := h.Judge(a.Raw); again != v {
				t.Errorf("judging the recorded answer gives %+v, live gave %+v", again, v)
			}
		})
	}
}

func TestHTTPCannotAnswer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hang.Close()
	redirect := httptest.NewServer(http.RedirectHandler("http://elsewhere.example/", http.StatusFound))
	defer redirect.Close()
	tests := []struct {
		name, base, want string
		timeout          time.Duration
	}{
		{"connection refused", closed, "GET " + closed + "/api/state: the connection was refused: nothing listens at " + ln.Addr().String(), time.Second},
		{"timeout", hang.URL, "GET " + hang.URL + "/api/state: no answer came in the time allowed", 200 * time.Millisecond},
		{"redirect outside the origins", redirect.URL, "outside the task's origins", time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := NewHTTP("", "/api/state", nil, `status == 200`)
			cond := Condition{ID: "c", Check: h}
			ctx, cancel := context.WithTimeout(context.Background(), tt.timeout)
			defer cancel()
			start := time.Now()
			a := reader(t, tt.base, nil).Ask(ctx, []Condition{cond}, nil)[0]
			v := Judge(cond, &a)
			if v.Done || !strings.Contains(v.Unconfirmed, tt.want) || !strings.HasPrefix(v.Evidence, "could not confirm: ") {
				t.Errorf("verdict %+v, want could not confirm: …%s…", v, tt.want)
			}
			if n := strings.Count(a.Error, tt.base); n != 1 {
				t.Errorf("the answer %q names the URL %d times, want once", a.Error, n)
			}
			if Refused(a) != (tt.name == "connection refused") {
				t.Errorf("Refused(%q) = %v", a.Error, Refused(a))
			}
			if took := time.Since(start); took > tt.timeout+time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
}

func TestHTTPSecretsAreSentAndRedacted(t *testing.T) {
	srv, hits := serve(t, 200, "application/json", `{"echo":"token $TOKEN","ok":true}`)
	rd := reader(t, srv.URL, map[string]string{"API_TOKEN": "s3cret-value"})
	a, _ := NewHTTP("", "/api", map[string]string{"X-Token": "${API_TOKEN}"}, `body.ok == true && body.echo.contains("••••••")`)
	b, _ := NewHTTP("", "/api", map[string]string{"X-Token": "${API_TOKEN}"}, `status == 200`)
	conds := []Condition{{ID: "a", Check: a}, {ID: "b", Check: b}}
	answers := rd.Ask(context.Background(), conds, nil)
	for i, ans := range answers {
		if strings.Contains(string(ans.Raw), "s3cret") || !Judge(conds[i], &ans).Done {
			t.Errorf("answer %s = %s; want done with the secret redacted", ans.Condition, ans.Raw)
		}
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("two conditions making the same request sent %d requests, want 1", n)
	}
	unset, _ := NewHTTP("", "/api", map[string]string{"X-Token": "${NOT_SET}"}, `status == 200`)
	if v, _ := verdict(t, rd, unset, nil); !strings.Contains(v.Unconfirmed, "NOT_SET is not set") {
		t.Errorf("an unset header variable gave %+v", v)
	}
}

func TestSQLiteConditions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`create table issues (id integer primary key, title text, state text, score real);
		insert into issues (title, state, score) values ('Broken link', 'closed', 1.5), ('Typo', 'open', null)`)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < MaxRows; i++ {
		if _, err := db.Exec(`insert into issues (title, state) values ('filler', 'open')`); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	tests := []struct {
		name, path, query, expr string
		done                    bool
		unconfirmed             string
	}{
		{"holds", path, `select title, state, score from issues where id <= 2 order by id`, `rows.size() == 2 && rows[0].state == "closed" && rows[0].score > 1.0 && rows[1].score == null`, true, ""},
		{"does not hold", path, `select state from issues where title = 'Typo'`, `rows[0].state == "closed"`, false, ""},
		{"aggregate", path, `select count(*) as n from issues`, `rows[0].n == 102`, true, ""},
		{"sql error", path, `select nope from issues`, `size(rows) == 0`, false, "no such column"},
		{"read only", path, `update issues set state = 'open'`, `size(rows) == 0`, false, "readonly"},
		{"no other database", path, "attach database '" + filepath.Join(filepath.Dir(path), "made.db") + "' as q", `size(rows) == 0`, false, "too many attached databases"},
		{"too many rows", path, `select * from issues`, `size(rows) > 0`, false, "more than 100 rows"},
		{"no database", filepath.Join(t.TempDir(), "none.db"), `select 1`, `size(rows) == 1`, false, "unable to open"},
	}
	rd := reader(t, "http://127.0.0.1/", nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewSQL(DriverSQLite, tt.path, "", tt.query, tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			v, a := verdict(t, rd, c, nil)
			if v.Done != tt.done || !strings.Contains(v.Unconfirmed, tt.unconfirmed) || (tt.unconfirmed == "") != (v.Unconfirmed == "") {
				t.Errorf("verdict %+v (answer %s %s), want done=%v unconfirmed containing %q", v, a.Raw, a.Error, tt.done, tt.unconfirmed)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "made.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a condition's query created a database file beside its own: %v", err)
	}
}

// TestSQLEvidenceIsBoundedPerCondition reads a wiki page's 100 KiB text from SQLite: over the
// default 64 KiB of evidence it cannot confirm, saying how to raise the bound; with
// evidence_kib 256 it answers, and the answer keeps the whole text; a bound out of range is
// refused at evidence_kib.
func TestSQLEvidenceIsBoundedPerCondition(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wiki.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("The second line, from an edit. ", 100<<10/31)
	if _, err := db.Exec(`create table text (old_text text); insert into text values (?)`, long); err != nil {
		t.Fatal(err)
	}
	db.Close()
	rd := reader(t, "http://127.0.0.1/", nil)
	ask := func(kib int) (agent.Verdict, agent.Answer) {
		c, err := NewSQL(DriverSQLite, path, "", "select old_text from text", `rows[0].old_text.contains("from an edit")`)
		if err != nil {
			t.Fatal(err)
		}
		if c, err = c.WithEvidence(kib); err != nil {
			t.Fatal(err)
		}
		return verdict(t, rd, c, nil)
	}
	if v, _ := ask(0); v.Unconfirmed == "" || !strings.Contains(v.Unconfirmed, "(or 64 KiB)") || !strings.Contains(v.Unconfirmed, "raise evidence_kib") {
		t.Errorf("100 KiB of rows under the default bound gave %+v, want could not confirm over 64 KiB", v)
	}
	v, a := ask(256)
	if !v.Done || v.Unconfirmed != "" || !strings.Contains(string(a.Raw), long) {
		t.Errorf("100 KiB of rows under a 256 KiB bound gave %+v (answer of %d bytes), want done with the whole text kept", v, len(a.Raw))
	}
	c, _ := NewSQL(DriverSQLite, path, "", "select 1", `size(rows) == 1`)
	for _, kib := range []int{-1, MaxEvidenceKiB + 1} {
		var fe *FieldError
		if _, err := c.WithEvidence(kib); !errors.As(err, &fe) || fe.Field != "evidence_kib" {
			t.Errorf("evidence_kib %d gave %v, want a refusal at evidence_kib", kib, err)
		}
	}
}

func TestPageConditions(t *testing.T) {
	sample := agent.Sample{
		URL:    "http://127.0.0.1:9/issues/3",
		Text:   "Issues Saved Broken link",
		Pairs:  []agent.RoleName{{Role: "heading", Name: "Issues"}, {Role: "button", Name: "Close"}, {Role: "button", Name: "Close"}, {Role: "textbox", Name: "Title"}},
		Fields: []agent.Field{{Role: "textbox", Name: "Title", Value: "Broken link"}},
	}
	str := func(s string) *string { return &s }
	tests := []struct {
		name string
		spec PageSpec
		done bool
	}{
		{"visible role", PageSpec{Visible: &agent.Target{Role: "heading", Name: "Issues"}}, true},
		{"visible role, several", PageSpec{Visible: &agent.Target{Role: "button", Name: "Close"}}, true},
		{"not visible", PageSpec{Visible: &agent.Target{Role: "dialog"}}, false},
		{"visible text", PageSpec{Visible: &agent.Target{Text: "Broken link"}}, true},
		{"value by label", PageSpec{Value: &agent.Target{Label: "Title"}, Equals: "Broken link"}, true},
		{"value differs", PageSpec{Value: &agent.Target{Role: "textbox", Name: "Title"}, Equals: "Other"}, false},
		{"text", PageSpec{Text: str("Saved")}, true},
		{"text missing", PageSpec{Text: str("Refused")}, false},
		{"url", PageSpec{URL: str(`/issues/\d+$`)}, true},
		{"url differs", PageSpec{URL: str(`/new$`)}, false},
	}
	rd := reader(t, "http://127.0.0.1:9/", nil)
	observe := func(context.Context) (agent.Sample, error) { return sample, nil }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPage(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			v, a := verdict(t, rd, p, observe)
			if v.Done != tt.done || v.Unconfirmed != "" || v.Evidence == "" {
				t.Errorf("verdict %+v (answer %s), want done=%v", v, a.Raw, tt.done)
			}
		})
	}
	p, _ := NewPage(PageSpec{Text: str("Saved")})
	if v, _ := verdict(t, rd, p, nil); !strings.Contains(v.Unconfirmed, "no page") {
		t.Errorf("without a page: %+v", v)
	}
	if _, err := NewPage(PageSpec{Visible: &agent.Target{CSS: "#x"}}); err == nil || !strings.HasPrefix(err.Error(), "visible: ") {
		t.Errorf("a css target in a page condition gave %v", err)
	}
}

func TestJudgeWithoutAnAnswer(t *testing.T) {
	h, _ := NewHTTP("", "/x", nil, `status == 200`)
	c := Condition{ID: "c", Check: h}
	tests := []struct {
		name string
		a    *agent.Answer
		want string
	}{
		{"none recorded", nil, "no answer was recorded"},
		{"an error recorded", &agent.Answer{Condition: "c", Kind: KindHTTP, Error: "dial tcp: refused"}, "dial tcp: refused"},
		{"another kind", &agent.Answer{Condition: "c", Kind: KindSQL, Raw: json.RawMessage(`{}`)}, `kind "sql"`},
		{"garbage", &agent.Answer{Condition: "c", Kind: KindHTTP, Raw: json.RawMessage(`[1]`)}, "not the expected JSON"},
	}
	for _, tt := range tests {
		if v := Judge(c, tt.a); v.Done || !strings.Contains(v.Unconfirmed, tt.want) {
			t.Errorf("%s: %+v, want could not confirm: %s", tt.name, v, tt.want)
		}
	}
}

func TestEnvRefs(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"Bearer ${TOKEN}", "Bearer abc", true},
		{"${A}${A}", "", false}, // A unset
		{"plain $5", "plain $5", true},
		{"${bad-name}", "", false},
		{"${UNCLOSED", "", false},
	}
	env := map[string]string{"TOKEN": "abc"}
	for _, tt := range tests {
		got, err := Expand(tt.in, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("Expand(%q) = %q, %v", tt.in, got, err)
		}
	}
}

// TestJudgeRefusesACaseVariantAnswer: a recorded answer (from an imported run file) that
// names a field twice in two cases reads one way to encoding/json and another to any reader
// that compares keys exactly, so it cannot be judged.
func TestJudgeRefusesACaseVariantAnswer(t *testing.T) {
	h, err := NewHTTP("", "/x", nil, `status == 200`)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{
		`{"status": 500, "Status": 200, "content_type": "application/json", "body": null}`,
		`{"STATUS": 200, "content_type": "application/json", "body": null}`,
	} {
		v := h.Judge(json.RawMessage(raw))
		if v.Done || !strings.Contains(v.Unconfirmed, "is not the field \"status\"") {
			t.Errorf("Judge(%s) = %+v, want could not confirm, naming the field", raw, v)
		}
	}
	if v := h.Judge(json.RawMessage(`{"status": 200, "content_type": "application/json", "body": {"Status": 1, "status": 2}}`)); !v.Done {
		t.Errorf("an answer whose body (the site's own JSON) has case-variant keys: %+v, want done", v)
	}
}

// TestCredentialsInAnswersAreMasked asks an endpoint that answers as a cloud metadata
// service does, and a table with a password column: the credentials are stored masked, the
// rest as it was.
func TestCredentialsInAnswersAreMasked(t *testing.T) {
	srv, _ := serve(t, 200, "application/json", `{"Code":"Success","AccessKeyId":"ASIAFAKE","SecretAccessKey":"wJalrFAKE","Token":"IQoFAKE","nested":[{"client_secret":"cs-FAKE","name":"app"}]}`)
	rd := reader(t, srv.URL, nil)
	c, err := NewHTTP("", "/latest/meta-data/iam/security-credentials/role", nil, `body.Code == "Success" && body.nested[0].name == "app"`)
	if err != nil {
		t.Fatal(err)
	}
	v, a := verdict(t, rd, c, nil)
	for _, secret := range []string{"ASIAFAKE", "wJalrFAKE", "IQoFAKE", "cs-FAKE"} {
		if strings.Contains(string(a.Raw), secret) {
			t.Errorf("the answer keeps %s: %s", secret, a.Raw)
		}
	}
	if !v.Done {
		t.Errorf("verdict %+v; the members that are not credentials still judge", v)
	}
	db := filepath.Join(t.TempDir(), "users.db")
	conn, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(`create table users (name text, password_hash text); insert into users values ('ada', 'pbkdf2-FAKE')`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	q, err := NewSQL(DriverSQLite, db, "", "select name, password_hash from users", `rows[0].name == "ada"`)
	if err != nil {
		t.Fatal(err)
	}
	if v, a := verdict(t, rd, q, nil); !v.Done || strings.Contains(string(a.Raw), "pbkdf2-FAKE") {
		t.Errorf("verdict %+v, answer %s; want done with the password masked", v, a.Raw)
	}
}

// TestLinkLocalAddressesAreNotDialled: a condition asking a link-local or metadata address is
// refused as the connection is about to be made, so no packet leaves.
func TestLinkLocalAddressesAreNotDialled(t *testing.T) {
	rd := reader(t, "http://127.0.0.1:9", nil)
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://[fd00:ec2::254]/"} {
		c, err := NewHTTP("", u, nil, `status == 200`)
		if err != nil {
			t.Fatal(err)
		}
		if _, a := verdict(t, rd, c, nil); !strings.Contains(a.Error, "where cloud machines serve their credentials") {
			t.Errorf("%s: answer %+v; want the connection refused before it is made", u, a)
		}
	}
}

// TestMySQLConditions asks conditions of a throwaway MariaDB: text columns reach CEL as
// strings, numbers as numbers; the session writes nothing, DDL included; the DSN and its
// password appear in no answer or error.
func TestMySQLConditions(t *testing.T) {
	dsn := mariadbtest.Start(t)
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`create table issues (id int primary key auto_increment, title varchar(100), state text, score decimal(4,2), filed datetime)`,
		`insert into issues (title, state, score, filed) values ('Broken link', 'closed', 1.5, '2026-01-02 03:04:05'), ('Typo', 'open', null, null)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	wrong := strings.Replace(dsn, mariadbtest.Password, "not-"+mariadbtest.Password, 1)
	tests := []struct {
		name, env, query, expr string
		done                   bool
		unconfirmed            string
	}{
		{"holds", "DB_DSN", `select title, state, score, filed from issues order by id`,
			`rows.size() == 2 && rows[0].state == "closed" && rows[0].title == "Broken link" && rows[0].score == "1.50" && rows[0].filed == "2026-01-02 03:04:05" && rows[1].score == null`, true, ""},
		{"does not hold", "DB_DSN", `select state from issues where title = 'Typo'`, `rows[0].state == "closed"`, false, ""},
		{"aggregate", "DB_DSN", `select count(*) as n from issues`, `rows[0].n == 2`, true, ""},
		{"the password is masked in rows", "DB_DSN", `select '` + mariadbtest.Password + `' as p`, `rows[0].p == "` + Mask + `"`, true, ""},
		{"sql error", "DB_DSN", `select nope from issues`, `size(rows) == 0`, false, "Unknown column"},
		{"read only", "DB_DSN", `update issues set state = 'open'`, `size(rows) == 0`, false, "READ ONLY"},
		{"no DDL", "DB_DSN", `create table made (id int)`, `size(rows) == 0`, false, "READ ONLY"},
		{"one statement", "DB_DSN", `select 1; drop table issues`, `size(rows) == 1`, false, "syntax"},
		{"wrong password", "WRONG_DSN", `select 1`, `size(rows) == 1`, false, "Access denied"},
		{"unset", "NO_DSN", `select 1`, `size(rows) == 1`, false, "NO_DSN (the mysql DSN) is not set"},
	}
	rd := reader(t, "http://127.0.0.1/", map[string]string{"DB_DSN": dsn, "WRONG_DSN": wrong})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewSQL(DriverMySQL, "", tt.env, tt.query, tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			v, a := verdict(t, rd, c, nil)
			if v.Done != tt.done || !strings.Contains(v.Unconfirmed, tt.unconfirmed) || (tt.unconfirmed == "") != (v.Unconfirmed == "") {
				t.Errorf("verdict %+v (answer %s %s), want done=%v unconfirmed containing %q", v, a.Raw, a.Error, tt.done, tt.unconfirmed)
			}
			for _, s := range []string{string(a.Raw), a.Error, v.Evidence, v.Unconfirmed} {
				if strings.Contains(s, mariadbtest.Password) {
					t.Errorf("the DSN's password shows in %q", s)
				}
			}
		})
	}
	check, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	var n int
	if err := check.QueryRow(`select count(*) from issues where state = 'closed'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("after the conditions, %d closed issues (%v); want the one there was", n, err)
	}
	if err := check.QueryRow(`select count(*) from information_schema.tables where table_name = 'made'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("a condition's DDL made a table (%d, %v)", n, err)
	}
}

// TestHTTPEvidenceIsPerConditionAfterThePick: a real app's long REST answer is over the
// default evidence bound and could not confirm; a pick keeps the part the expression needs,
// within the bound, and a condition may raise its own bound.
func TestHTTPEvidenceIsPerConditionAfterThePick(t *testing.T) {
	var posts []map[string]any
	for i := range 200 {
		posts = append(posts, map[string]any{"id": i, "slug": fmt.Sprintf("post-%d", i), "status": "draft", "content": strings.Repeat("lorem ipsum ", 20)})
	}
	posts[150]["slug"], posts[150]["status"] = "hello", "publish"
	body, _ := json.Marshal(posts)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer srv.Close()
	rd := reader(t, srv.URL, nil)
	const published = `body.exists(p, p.slug == "hello" && p.status == "publish")`
	tests := []struct {
		name, pick, expr string
		kib              int
		done             bool
		unconfirmed      string
		maxAnswer        int
	}{
		{"the whole answer is over the bound", "", published, 0, false, "over 16 KiB", 20 << 10},
		{"a pick keeps what the expression needs", `body.filter(p, p.slug == "hello").map(p, {"slug": p.slug, "status": p.status})`, published, 0, true, "", 1 << 10},
		{"a pick that does not hold", `body.filter(p, p.slug == "hello").map(p, p.status)`, `body == ["draft"]`, 0, false, "", 1 << 10},
		{"a bound of the condition's own", "", published, 128, true, "", 128 << 10},
		{"a pick that fails", `body[0].nope`, `body == 1`, 0, false, "picking `body[0].nope`: no such key", 1 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewHTTP("", "/api/posts", nil, tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if c, err = c.WithEvidence(tt.pick, tt.kib); err != nil {
				t.Fatal(err)
			}
			v, a := verdict(t, rd, c, nil)
			if v.Done != tt.done || !strings.Contains(v.Unconfirmed, tt.unconfirmed) || (tt.unconfirmed == "") != (v.Unconfirmed == "") {
				t.Errorf("verdict %+v (answer of %d bytes, %s), want done=%v unconfirmed containing %q", v, len(a.Raw), a.Error, tt.done, tt.unconfirmed)
			}
			if len(a.Raw) > tt.maxAnswer {
				t.Errorf("the answer keeps %d bytes, want at most %d", len(a.Raw), tt.maxAnswer)
			}
		})
	}
	for _, kib := range []int{-1, MaxEvidenceKiB + 1} {
		c, _ := NewHTTP("", "/api/posts", nil, "true")
		if _, err := c.WithEvidence("", kib); err == nil || !strings.Contains(err.Error(), "evidence_kib") {
			t.Errorf("evidence_kib %d: error %v", kib, err)
		}
	}
	c, _ := NewHTTP("", "/api/posts", nil, "true")
	if _, err := c.WithEvidence("body.", 0); err == nil || !strings.Contains(err.Error(), "pick") {
		t.Errorf("a pick that does not compile: error %v", err)
	}
}

// TestPageConditionsInAFrame judges inside frames of one sample: an editor's nested preview
// by title, a frame by its name, a text the page shows outside the frame (not in it), and a
// frame the page does not have; a frame by CSS, or by both title and name, is refused.
func TestPageConditionsInAFrame(t *testing.T) {
	sample := agent.Sample{
		URL:   "http://127.0.0.1:9/edit",
		Text:  "Edit post Published Hello",
		Pairs: []agent.RoleName{{Role: "heading", Name: "Edit post"}, {Role: "button", Name: "Publish"}},
		Frames: []agent.FrameView{
			{Path: []agent.FrameRef{{Title: "Editor"}}, URL: "http://127.0.0.1:9/canvas", Text: "Hello",
				Fields: []agent.Field{{Role: "textbox", Name: "Title", Value: "Hello"}}},
			{Path: []agent.FrameRef{{Title: "Editor"}, {Title: "Preview", Name: "preview"}}, URL: "http://127.0.0.1:9/preview", Text: "Hello",
				Pairs: []agent.RoleName{{Role: "heading", Name: "Hello"}}},
		},
	}
	str := func(s string) *string { return &s }
	editor, preview := []agent.FrameRef{{Title: "Editor"}}, []agent.FrameRef{{Title: "Editor"}, {Name: "preview"}}
	tests := []struct {
		name     string
		spec     PageSpec
		done     bool
		evidence string
	}{
		{"a field in the frame", PageSpec{Value: &agent.Target{Label: "Title"}, Equals: "Hello", Frame: editor}, true, `(in the frame with title "Editor")`},
		{"a heading in the nested frame, by name", PageSpec{Visible: &agent.Target{Role: "heading", Name: "Hello"}, Frame: preview}, true, `title "Editor" > name "preview"`},
		{"the page's own text is not the frame's", PageSpec{Text: str("Published"), Frame: editor}, false, "is not on the page"},
		{"the page's own button is not the frame's", PageSpec{Visible: &agent.Target{Role: "button", Name: "Publish"}, Frame: editor}, false, "no button"},
		{"the frame's address", PageSpec{URL: str("/preview$"), Frame: preview}, true, "the URL is http://127.0.0.1:9/preview"},
		{"a frame the page does not have", PageSpec{Text: str("Hello"), Frame: []agent.FrameRef{{Title: "Comments"}}}, false, `no shown frame with title "Comments"`},
	}
	for _, tt := range tests {
		c, err := NewPage(tt.spec)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		v, _ := verdict(t, reader(t, "http://127.0.0.1:9/", nil), c, func(context.Context) (agent.Sample, error) { return sample, nil })
		if v.Done != tt.done || !strings.Contains(v.Evidence, tt.evidence) {
			t.Errorf("%s: %+v, want done=%v with %q", tt.name, v, tt.done, tt.evidence)
		}
	}
	for _, f := range [][]agent.FrameRef{{{CSS: "iframe"}}, {{Title: "Editor", Name: "editor"}}, {{}}} {
		var fe *FieldError
		if _, err := NewPage(PageSpec{Text: str("Hello"), Frame: f}); !errors.As(err, &fe) || fe.Field != "frame" {
			t.Errorf("frame %+v gave %v, want a refusal at frame", f, err)
		}
	}
}
