package taskfile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/labs"
	"observatory/backend/taskfile"
)

// minimal is a valid task with room for more: %s is replaced by extra top-level YAML.
const minimal = `schema: observatory.task/v1
name: t
intent: Do it.
start_url: http://127.0.0.1:8080/
success:
  - id: ok
    page: {text: Done}
%s`

// TestHostileTaskFilesAreRefusedWithTheirPath loads every file of testdata/bad and checks each is refused with an *Error naming where.
func TestHostileTaskFilesAreRefusedWithTheirPath(t *testing.T) {
	files := map[string]string{
		"bad-yaml.yaml":              "line 3: not valid YAML: ',' or ']' must be specified",
		"unknown-field.yaml":         "at plan[0].descripton: unknown field; the fields here are id, description, action, target, value, value_env, secret",
		"bad-cel.yaml":               "at success[2].http.expr: undeclared reference to 'bdy' (column 1)",
		"non-bool-cel.yaml":          "at success[0].sql.expr: the expression gives int, want bool",
		"duplicate-key.yaml":         "at name: duplicate key",
		"alias-bomb.yaml":            "at origins: anchors and aliases (&name, *name) are not allowed",
		"deep-nesting.yaml":          "at success[0].http.headers.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a: nested deeper than 32 levels",
		"outside-origins.yaml":       "at success[0].http.url: http://evil.example/api/state is outside the task's origins (http://127.0.0.1:8080)",
		"navigate-outside.yaml":      "at plan[0].value: https://elsewhere.example/login is outside the task's origins",
		"no-locator.yaml":            "at plan[1].target: give exactly one of role, label, placeholder, test_id, text, css",
		"two-locators.yaml":          "at plan[0].target: give exactly one of role, label, placeholder, test_id, text, css",
		"wrong-type.yaml":            "at config.budget: want a whole number, got a string",
		"bad-schema.yaml":            `at schema: want "observatory.task/v1", got "observatory.task/v2"`,
		"tag.yaml":                   "at intent: tags (!!binary) are not allowed",
		"two-documents.yaml":         "line 9: a task file is one YAML document",
		"two-kinds.yaml":             "at success[0]: give exactly one of page, http, sql",
		"truth-lab-without-lab.yaml": "at truth: truth: lab needs a lab",
		"unknown-lab.yaml":           `at lab: no lab called "bookings"`,
		"relative-no-base.yaml":      `at start_url: "/issues" is relative: give base_url, or a lab`,
		"write-method.yaml":          `at success[0].http.method: "DELETE": want GET or HEAD`,
		"fault-without-lab.yaml":     "at attempts[0].fault: only a lab task has faults",
		"duplicate-id.yaml":          `at success[1].id: "ok" is already the id of success[0]`,
		"credentials-in-url.yaml":    "at start_url: \"http://admin:xxxxx@127.0.0.1:8080/\": credentials do not belong in a URL",
		"duplicate-key.json":         "at success[0].page.text: duplicate key",
		"duplicate-escaped-key.json": "at success[0].page.text: duplicate key",
		"duplicate-escaped-key.yaml": "at name: duplicate key",
		"case-variant-key.json":      "at success[0].page.Text: unknown field",
		"unknown-field.json":         "at attempts[0].config.retries: unknown field",
		"bad-json.json":              "line 1: not valid JSON: unexpected end of the file",
		"not-utf8.yaml":              "line 3: byte 0xe9 at column 10 is not UTF-8 text; save the file as UTF-8",
		"utf16.yaml":                 "line 1: the file is UTF-16 text; save it as UTF-8",
		"downloads-outside.yaml":     "at downloads: " + outside("../../../../..") + " is outside the file's folder",
		"sql-outside.yaml":           "at success[0].sql.path: " + outside("../../../../../.config/chromium/Default/Cookies") + " is outside the file's folder",
		"storage-state-outside.yaml": "at session.storage_state: " + outside("../../../../go.mod") + " is outside the file's folder",
		"secret-in-base-url.yaml":    "at base_url: reads environment variable AWS_SECRET_ACCESS_KEY, which you have not allowed (AWS_SECRET_ACCESS_KEY looks secret",
		"metadata-origin.yaml":       "at origins[1]: http://169.254.169.254 is a link-local address, where cloud machines serve their credentials; to allow it, run with --allow-link-local",
	}
	entries, err := os.ReadDir("testdata/bad")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		t.Errorf("testdata/bad has %d files, the table %d", len(entries), len(files))
	}
	for name, want := range files {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata/bad", name)
			refused(t, path, func() error { _, err := taskfile.Load(path, taskfile.Options{Labs: labs.ForTaskFiles}); return err }, path+": "+want)
		})
	}
}

// outside is the real path of a path relative to testdata/bad, as a refusal names it.
func outside(rel string) string {
	abs, _ := filepath.Abs(filepath.Join("testdata/bad", rel))
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// TestAFileOverTheLimitIsRefused loads a task file one byte over MaxFileSize (written here,
// not kept in testdata): it is refused with its path, without being parsed.
func TestAFileOverTheLimitIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.yaml")
	if err := os.WriteFile(path, []byte(strings.Repeat("#", taskfile.MaxFileSize+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	refused(t, path, func() error { _, err := taskfile.Load(path, taskfile.Options{}); return err }, path+": the file is over 1024 KiB")
}

func TestHostileGeneratedTaskFiles(t *testing.T) {
	var steps, conds strings.Builder
	steps.WriteString("plan:\n")
	for i := 0; i <= taskfile.MaxSteps; i++ {
		steps.WriteString("  - {description: Wait, action: verify}\n")
	}
	// keys generates n "kI: 1" lines indented by indent, so many keys in one object that the
	// YAML parser would take most of a minute over them.
	keys := func(n int, indent, sep string) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%sk%d: 1%s", indent, i, sep)
		}
		return b.String()
	}
	conds.WriteString("signals:\n")
	for i := 0; i < taskfile.MaxConditions; i++ {
		fmt.Fprintf(&conds, "  - {id: s%d, notice: Saved}\n", i)
	}
	tests := []struct {
		name, data, want string
	}{
		{"over 1 MiB", fmt.Sprintf(minimal, "# "+strings.Repeat("x", taskfile.MaxFileSize)+"\n"), "huge.yaml: the file is over 1024 KiB"},
		{"flow nesting", fmt.Sprintf(minimal, "x: "+strings.Repeat("[", 400_000)+strings.Repeat("]", 400_000)+"\n"), "huge.yaml: line 8: nested deeper than 32 levels"},
		{"block nesting", fmt.Sprintf(minimal, "x:\n"+strings.Repeat("- ", 400_000)+"y\n"), "huge.yaml: line 9: nested deeper than 32 levels"},
		{"too many steps", fmt.Sprintf(minimal, steps.String()), "huge.yaml: at plan: 201 steps; at most 200"},
		{"too many conditions", fmt.Sprintf(minimal, conds.String()), "huge.yaml: at signals[99]: more than 100 conditions and signals"},
		{"many top-level keys", fmt.Sprintf(minimal, keys(100_000, "", "\n")), "huge.yaml: line 1003: more than 1000 keys in one object"},
		{"many nested keys", fmt.Sprintf(minimal, "x:\n  - y:\n"+keys(50_000, "      ", "\n")), "huge.yaml: line 1010: more than 1000 keys in one object"},
		{"many flow keys", fmt.Sprintf(minimal, "x: {"+keys(50_000, "", ", ")+"}\n"), "huge.yaml: line 8: more than 1000 keys in one object"},
		{"a long list", fmt.Sprintf(minimal, "x: ["+strings.Repeat("1,", 400_000)+"1]\n"), "huge.yaml: line 8: more than 100000 YAML tokens (keys, values and punctuation) in the file"},
		{"json many keys", `{"x": {` + strings.TrimSuffix(strings.ReplaceAll(keys(50_000, `"`, ", "), `: 1`, `": 1`), ", ") + `}}`, "huge.json: at x: more than 1000 keys in one object"},
		{"json nesting", strings.Repeat(`{"a":`, 100_000), "huge.json: at a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a: nested deeper than 32 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "huge.yaml"
			if strings.HasPrefix(tt.name, "json") {
				name = "huge.json"
			}
			start := time.Now()
			refused(t, name, func() error { _, err := taskfile.Parse(name, []byte(tt.data), "", taskfile.Options{}); return err }, tt.want)
			// A guard against hanging or exploding, not a speed target: the parsers are linear
			// and stop at the limits, so even a loaded machine under -race stays far below.
			if took := time.Since(start); took > time.Minute {
				t.Errorf("refusing it took %v", took)
			}
		})
	}
}

// refused checks that load fails with an *Error reading want.
func refused(t *testing.T, file string, load func() error, want string) {
	t.Helper()
	err := load()
	var te *taskfile.Error
	switch {
	case err == nil:
		t.Fatalf("%s was accepted", file)
	case !errors.As(err, &te):
		t.Fatalf("%s: %v is not a *taskfile.Error", file, err)
	case !strings.HasPrefix(err.Error(), want):
		t.Errorf("%s:\n got %v\nwant %s…", file, err, want)
	}
}
