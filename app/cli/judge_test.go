package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs/booking"
	"observatory/backend/metrics"
	"observatory/backend/planner/model/providertest"
	"observatory/backend/runfile"
	"observatory/backend/stats"
)

// noticeJudge is a scripted model judge, speaking OpenAI chat completions through the real
// SDK client: it says done whenever the page it is shown announces "Reservation saved", as a
// judge fooled by the notice would. It counts the screenshots it was shown.
type noticeJudge struct {
	*httptest.Server
	mu     sync.Mutex
	asked  int
	images int
}

func newNoticeJudge(t *testing.T) *noticeJudge {
	j := &noticeJudge{}
	j.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		done := bytes.Contains(body, []byte(`notice: \"Reservation saved\"`))
		args := `{"done":false,"reason":"no confirmation on the page"}`
		if done {
			args = `{"done":true,"reason":"the page says the reservation was saved"}`
		}
		j.mu.Lock()
		j.asked++
		j.images += bytes.Count(body, []byte("data:image/"))
		j.mu.Unlock()
		rep := providertest.OpenAI.Call("call_1", "verdict", args)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, rep.Body)
	}))
	t.Cleanup(j.Close)
	return j
}

// judgedBookingTask writes the booking lab's task file with a model judge signal asking the
// given OpenAI-compatible server, and returns its path.
func judgedBookingTask(t *testing.T, dir, baseURL string) string {
	t.Helper()
	data, err := os.ReadFile(bookingTaskFile)
	if err != nil {
		t.Fatal(err)
	}
	judge := "  - id: judge\n    label: model judge\n    judge:\n      recipe: last-screenshots\n      screenshots: 2\n" +
		"      models: [{provider: openai, model: scripted-judge, base_url: \"" + baseURL + "\"}]\n\ntruth: lab"
	text := strings.Replace(string(data), "truth: lab", judge, 1)
	path := filepath.Join(dir, "booking-judged.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestABookingJudgeFooledByTheNotice runs the booking lab's eight attempts in real Chromium
// with a model judge signal beside the notice, Parallax's check and the gate. The judge,
// fooled by the notice, says done on notice-nothing-saved and wrong-room and is marked wrong
// there, as the notice is; it was asked once per attempt, shown the last screenshots. The
// exported run verifies offline with the judge's server gone (its recorded answers are
// replayed, no model is asked), and a copy whose judge verdict is tampered with is flagged.
// `metrics --calibration` then gives the judge's false-done rate as 2 of 8 with its interval.
func TestABookingJudgeFooledByTheNotice(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	judge := newNoticeJudge(t)
	dir := t.TempDir()
	task := judgedBookingTask(t, dir, judge.URL+"/v1")
	file := filepath.Join(dir, "judged.json")
	code, out, errOut := run(t, "run", task, "--parallel", "2", "--deadline", "4000", "--no-video", "--export", file, "--data-dir", dir)
	if !ranThrough(code, errOut) {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, spec := range booking.New().Attempts() {
		row := rowOf(t, out, spec.Slug)
		w := booking.SeedTable[spec.Slug]
		want := "not done"
		if w.Notice {
			want = "done"
		}
		if w.Notice != w.Saved {
			want += " (wrong)"
		}
		checkRow(t, row, map[string]string{"MODEL JUDGE": want, "SUCCESS NOTICE": row["SUCCESS NOTICE"]})
		if row["MODEL JUDGE"] != row["SUCCESS NOTICE"] {
			t.Errorf("%s: the judge says %q, the notice %q", spec.Slug, row["MODEL JUDGE"], row["SUCCESS NOTICE"])
		}
	}
	if judge.asked != 8 || judge.images == 0 {
		t.Errorf("the judge was asked %d times with %d screenshots, want once per attempt, with screenshots", judge.asked, judge.images)
	}
	judge.Close() // from here on its address answers nothing: no model is asked

	if code, vout, verr := run(t, "verify", file); code != 0 || !strings.Contains(verr, "every recorded verdict agrees with the replay") ||
		strings.TrimSpace(tableOf(vout)) != strings.TrimSpace(tableOf(out)) {
		t.Errorf("verify: exit %d\n%s\n%s", code, vout, verr)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := runfile.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tampered := false
	for i := range f.Run.Attempts {
		a := &f.Run.Attempts[i]
		for j := range a.Verdicts.Signals {
			if s := &a.Verdicts.Signals[j]; a.Slug == "wrong-room" && s.ID == "judge" {
				s.Done, tampered = false, true
			}
		}
	}
	if !tampered {
		t.Fatal("no judge verdict on wrong-room to tamper with")
	}
	var buf bytes.Buffer
	if err := runfile.EncodeFile(&buf, f); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "tampered.json")
	if err := os.WriteFile(bad, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, verr := run(t, "verify", bad); code == 0 || !strings.Contains(verr, "wrong-room") || !strings.Contains(verr, "judge") {
		t.Errorf("verify of a tampered judge verdict: exit %d\n%s", code, verr)
	}
	checkCalibration(t, dir)
	for _, a := range f.Run.Attempts {
		for _, ans := range a.Answers {
			if ans.Kind != agent.AnswerJudge {
				continue
			}
			if r, err := agent.ReadJudgeReply(ans.Raw); ans.Error != "" || err != nil || r.Model != "openai:scripted-judge" || r.InTokens == 0 {
				t.Errorf("%s: the judge's recorded answer %+v (%v), error %q", a.Slug, r, err, ans.Error)
			}
		}
	}
}

// checkCalibration reads `metrics --calibration` over the one booking run in dir: against
// ground truth the notice-fooled judge is done and wrong on notice-nothing-saved and
// wrong-room, a false-done rate of 2 of 8 with its Wilson interval, as the notice's; the
// printed table says so and names the two attempts.
func checkCalibration(t *testing.T, dir string) {
	t.Helper()
	code, out, errOut := run(t, "metrics", "--calibration", "--json", "--data-dir", dir)
	if code != 0 {
		t.Fatalf("metrics --calibration: exit %d: %s", code, errOut)
	}
	var c metrics.Calibration
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	id := onlyRun(t, dir)
	wrong := []metrics.AttemptRef{{Run: id, Attempt: "notice-nothing-saved"}, {Run: id, Attempt: "wrong-room"}}
	found := 0
	for _, sc := range c.Overall.Signals {
		if (sc.Signal != "judge" && sc.Signal != "notice") || sc.Against != metrics.AgainstTruth {
			continue
		}
		found++
		cf := sc.Confusion
		want := stats.Proportion{K: 2, N: 8}.Wilson()
		if sc.FalseDone.K != 2 || sc.FalseDone.N != 8 || sc.FalseDone.Interval != want || !reflect.DeepEqual(cf.FalseDone, wrong) ||
			len(cf.TrueDone) != 3 || len(cf.TrueNotDone) != 3 || len(cf.FalseNotDone) != 0 || sc.Precision.K != 3 || sc.Precision.N != 5 ||
			sc.Recall.K != 3 || sc.Recall.N != 3 || sc.GateStandsIn != 0 {
			t.Errorf("%s against the truth: %+v", sc.Signal, sc)
		}
	}
	if found != 2 {
		t.Errorf("the calibration has %d of the judge and the notice against the truth:\n%s", found, out)
	}
	_, text, _ := run(t, "metrics", "--calibration", "--data-dir", dir)
	if !strings.Contains(text, "2/8 [7%, 59%]") || !strings.Contains(text, "model judge against the truth, done, wrong: "+id+"/notice-nothing-saved, "+id+"/wrong-room") {
		t.Errorf("metrics --calibration printed:\n%s", text)
	}
}
