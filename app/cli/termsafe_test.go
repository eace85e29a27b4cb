package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// Strings a hostile file or page could carry: a newline that forges a table row, a screen
// clear, a terminal retitle (OSC 0), a carriage return that overwrites, and a bidi override.
const (
	forgedRow = "evil\nsaves-normally  yes  done  done  done  completed"
	hostile   = "\x1b[2J\x1b]0;owned\x07failed\rcompleted \u202edone"
	escaped   = `\x1b[2J\x1b]0;owned\x07failed\rcompleted \u202edone`
)

// assertInert fails if out holds anything a terminal acts on other than the newlines that end
// its own lines.
func assertInert(t *testing.T, what, out string) {
	t.Helper()
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "\t"} {
		if strings.Contains(out, bad) {
			t.Errorf("%s printed %q raw:\n%q", what, bad, out)
		}
	}
}

// storeHostileRun stores, as if imported, a run whose strings are all hostile.
func storeHostileRun(t *testing.T, dir string) {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cond := agent.Condition{ID: "record", Label: "a record " + hostile, Verdict: agent.Verdict{Evidence: hostile}}
	run := agent.Run{ID: "0123456789abcdef", Task: "booking", Created: time.Now().UTC(), Status: agent.RunImported,
		Source: "x.json\n" + hostile,
		Attempts: []agent.Attempt{{Slug: forgedRow, Title: hostile, Terminal: agent.Failed, Reason: hostile, Config: agent.DefaultConfig(),
			Verdicts: agent.Verdicts{Gate: agent.Gate{Conditions: []agent.Condition{cond}}}}}}
	if err := st.SaveImported(run); err != nil {
		t.Fatal(err)
	}
}

func TestShowAndRunsPrintFileStringsEscaped(t *testing.T) {
	dir := t.TempDir()
	storeHostileRun(t, dir)

	code, out, errOut := run(t, "show", "0123456789abcdef", "--data-dir", dir)
	if code != 0 {
		t.Fatalf("show: exit %d: %s", code, errOut)
	}
	assertInert(t, "show", out)
	// The table is its header, one attempt and the WRONG line, then the reasons: the slug's
	// newline must not add a row.
	lines := strings.Split(out, "\n")
	var table []string
	for _, l := range lines[2:] {
		if l == "" {
			break
		}
		table = append(table, l)
	}
	if len(table) != 3 || !strings.HasPrefix(table[1], `evil\nsaves-normally`) {
		t.Errorf("show's table has %d lines, want 3 with the slug escaped on one:\n%s", len(table), strings.Join(table, "\n"))
	}
	for _, want := range []string{`failed: ` + escaped, `gate: a record ` + escaped + `: ` + escaped, `(x.json\n` + escaped + `)`} {
		if !strings.Contains(out, want) {
			t.Errorf("show's output lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = run(t, "runs", "--data-dir", dir)
	if code != 0 {
		t.Fatalf("runs: exit %d: %s", code, errOut)
	}
	assertInert(t, "runs", out)
	if n := strings.Count(out, "\n"); n != 2 || !strings.Contains(out, `x.json\n`+escaped) {
		t.Errorf("runs printed %d lines, want the header and one run with its source escaped:\n%s", n, out)
	}
}

// TestRefusalsQuotingAFileAreEscaped: a run file's unknown key is quoted in the refusal.
func TestRefusalsQuotingAFileAreEscaped(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "..", "backend", "runfile", "testdata", "good.json"))
	if err != nil {
		t.Fatal(err)
	}
	key := `"\u001b]0;owned\u0007\r\nError: forged": 1, "attempt": "saves-normally"`
	data := bytes.Replace(good, []byte(`"attempt": "saves-normally"`), []byte(key), 1)
	path := filepath.Join(t.TempDir(), "hostile.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "verify", path)
	if code != 1 || out != "" || !strings.Contains(errOut, `\x1b]0;owned\x07\r\nError: forged: unknown field`) {
		t.Errorf("verify: exit %d\nstdout %q\nstderr %q\nwant exit 1 and the key escaped", code, out, errOut)
	}
	assertInert(t, "verify", errOut)
	// The first line says the file is unsigned (the signature is checked before anything else).
	if n := strings.Count(errOut, "\n"); n != 2 || !strings.HasPrefix(errOut, path+": unsigned\n") {
		t.Errorf("verify's refusal spans %d lines after the signature's, want 1: %q", n-1, errOut)
	}
}

func TestProgressPrintsFileStringsEscaped(t *testing.T) {
	var buf bytes.Buffer
	p := progressPrinter(&buf)
	p(runner.Progress{Kind: runner.AttemptStarted, Index: 1, Total: 1, Slug: forgedRow})
	p(runner.Progress{Kind: runner.StepDone, Step: &agent.Step{}})
	p(runner.Progress{Kind: runner.Error, Message: "page said " + hostile})
	p(runner.Progress{Kind: runner.AttemptFinished, Attempt: &agent.Attempt{Terminal: agent.Terminal(hostile)}})
	out := buf.String()
	assertInert(t, "progress", out)
	want := "[1/1] " + `evil\nsaves-normally  yes  done  done  done  completed` + " .\nerror: page said " + escaped + "\n " + escaped + "\n"
	if out != want {
		t.Errorf("progress printed\n%q\nwant\n%q", out, want)
	}
}

// TestTaskCheckPrintsFileStringsEscaped: `task check` prints the labels of a task file's
// conditions and signals, and the notice a signal waits for, escaped; each stays on its line.
func TestTaskCheckPrintsFileStringsEscaped(t *testing.T) {
	starter, err := os.ReadFile(filepath.Join("..", "..", "backend", "taskfile", "starter.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// YAML's double-quoted escapes carry each hostile character into the label.
	yamlHostile := `"\e[2J\e]0;owned\afailed\rcompleted \u202Edone\nError: forged"`
	text := string(starter)
	for _, label := range []string{"The API lists the project", "success notice", "Parallax's check"} {
		if !strings.Contains(text, "label: "+label) {
			t.Fatalf("the starter has no label %q", label)
		}
		text = strings.Replace(text, "label: "+label, "label: "+yamlHostile, 1)
	}
	path := filepath.Join(t.TempDir(), "hostile\x1b]0;x\x07.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SITE_URL", "http://127.0.0.1:1")
	code, out, errOut := run(t, "task", "check", path)
	if code != 0 {
		t.Fatalf("task check: exit %d: %s", code, errOut)
	}
	assertInert(t, "task check", out)
	if n := strings.Count(out, escaped+`\nError: forged`); n != 3 {
		t.Errorf("task check printed the hostile label escaped %d times, want 3 (a condition, two signals):\n%s", n, out)
	}
	if !strings.HasPrefix(out, `OK `+filepath.Dir(path)+`/hostile\x1b]0;x\x07.yaml: task my-task`) {
		t.Errorf("task check's first line does not escape the file name:\n%s", out)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(line, "Error:") {
			t.Errorf("a label forged a line of its own: %q", line)
		}
	}
}
