package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestBrowserLogTravelsApartFromTheReason: an attempt's browser log is written as its own
// optional member, read back as it was, and refused past agent.MaxBrowserLog bytes; a file
// without it (every file from before it was recorded) still reads.
func TestBrowserLogTravelsApartFromTheReason(t *testing.T) {
	run := goodRun()
	const log = "Browser logs:\n\n<launching> /usr/bin/chromium --headless\n[pid=4242] <process did exit: exitCode=null, signal=SIGKILL>"
	run.Attempts[1].Reason = "click button[Save]: the browser is gone: Chromium exited"
	run.Attempts[1].BrowserLog = log
	data := encoded(t, File{Schema: Schema, Exported: t0, Run: run})
	got, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if a := got.Run.Attempts[1]; a.BrowserLog != log || a.Reason != run.Attempts[1].Reason {
		t.Errorf("read back browser log %q and reason %q", a.BrowserLog, a.Reason)
	}
	if got.Run.Attempts[0].BrowserLog != "" || bytes.Count(data, []byte(`"browser_log"`)) != 1 {
		t.Errorf("an attempt without a browser log got one, or the file names it %d times", bytes.Count(data, []byte(`"browser_log"`)))
	}

	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["attempts"].([]any)[1].(map[string]any)["browser_log"] = strings.Repeat("x", agent.MaxBrowserLog+1)
	big, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Decode(bytes.NewReader(big))
	var refused *Error
	if !errors.As(err, &refused) || refused.Path != "attempts[1].browser_log" || !strings.Contains(refused.Problem, "over the 16 KiB") {
		t.Errorf("a browser log over the limit: %v, want it refused by its path", err)
	}
	doc["attempts"].([]any)[1].(map[string]any)["browser_log"] = 7
	typed, _ := json.Marshal(doc)
	if _, err := Decode(bytes.NewReader(typed)); !errors.As(err, &refused) || refused.Path != "attempts[1].browser_log" {
		t.Errorf("a browser log that is not a string: %v, want it refused by its path", err)
	}
}
