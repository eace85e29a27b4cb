package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/runfile"
)

// TestExportHARWritesOneAttemptsRequests imports a run file whose wrong-room attempt
// recorded a save POST answered 500 (one header left unmasked, as a hand-made file could
// hold it), exports that attempt as HAR and checks the entry, its status and the masking;
// a HAR export without its attempt, or of an attempt the run lacks, says what is wrong.
func TestExportHARWritesOneAttemptsRequests(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Open(filepath.Join("..", "..", "backend", "runfile", "testdata", "v1-booking.json"))
	if err != nil {
		t.Fatal(err)
	}
	file, err := runfile.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	a := &file.Run.Attempts[1]
	last := &a.Steps[len(a.Steps)-1]
	last.Requests = []agent.Request{{Method: "POST", URL: "http://127.0.0.1:1/api/reservations?api_key=k-1", ResourceType: "fetch",
		Status: 500, StatusText: "Internal Server Error", StartMS: last.StartMS, DurationMS: 20, Size: 12,
		RequestHeaders: []agent.Header{{Name: "Cookie", Value: "sid=hand-made"}}}}
	src := filepath.Join(dir, "run.json")
	out, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := runfile.EncodeFile(out, file); err != nil {
		t.Fatal(err)
	}
	out.Close()
	code, stdout, errOut := run(t, "import", src, "--data-dir", dir)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	id := strings.TrimSpace(stdout[strings.LastIndex(stdout, " ")+1:])

	path := filepath.Join(dir, "wrong-room.har")
	if code, _, errOut := run(t, "export", id, "--attempt", "wrong-room", "--har", path, "--data-dir", dir); code != 0 || !strings.Contains(errOut, "wrote "+path) {
		t.Fatalf("export --har: exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var har struct {
		Log struct {
			Version string
			Pages   []struct{ ID string }
			Entries []struct {
				PageRef string `json:"pageref"`
				Request struct {
					Method, URL string
					Headers     []struct{ Name, Value string }
				}
				Response struct{ Status int }
			}
		}
	}
	if err := json.Unmarshal(data, &har); err != nil {
		t.Fatalf("the HAR is not JSON: %v", err)
	}
	l := har.Log
	if l.Version != "1.2" || len(l.Pages) != len(a.Steps) || len(l.Entries) != 1 {
		t.Fatalf("HAR version %q, %d pages, %d entries; want 1.2, %d, 1", l.Version, len(l.Pages), len(l.Entries), len(a.Steps))
	}
	e := l.Entries[0]
	if e.PageRef != l.Pages[len(l.Pages)-1].ID || e.Request.Method != "POST" || e.Response.Status != 500 ||
		e.Request.URL != "http://127.0.0.1:1/api/reservations?api_key=••••••" || e.Request.Headers[0].Value != "••••••" {
		t.Errorf("HAR entry %+v: want the last step's POST, 500, key and cookie masked", e)
	}
	if strings.Contains(string(data), "hand-made") || strings.Contains(string(data), "k-1") {
		t.Error("the HAR shows a secret")
	}

	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"export", id, "--har", path}, "name it with --attempt SLUG"},
		{[]string{"export", id, "--attempt", "nope", "--har", path}, `has no attempt "nope": it has saves-normally, wrong-room`},
		{[]string{"export", id, "--attempt", "wrong-room", "--har", path, "-o", path}, "not both"},
		{[]string{"export", id, "--attempt", "wrong-room", "--har", path, "--ledger", path + ".csv"}, "give one of them"},
	} {
		if code, _, errOut := run(t, append(tt.args, "--data-dir", dir)...); code != 1 || !strings.Contains(errOut, tt.err) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tt.args, code, errOut, tt.err)
		}
	}
}
