package booking

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// start serves an instance for one test and closes it afterwards.
func start(t *testing.T, fault string, latencyMS int) *Instance {
	t.Helper()
	in, err := Start("", fault, latencyMS)
	if err != nil {
		t.Fatalf("Start(%q, %d): %v", fault, latencyMS, err)
	}
	t.Cleanup(func() { _ = in.Close() })
	return in
}

// post sends body as JSON to path and returns the status and the answer's "error" field.
func post(ctx context.Context, in *Instance, path string, body any) (int, string, error) {
	raw, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, in.URL()+strings.TrimPrefix(path, "/"), bytes.NewReader(raw))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	var answer struct {
		Error string `json:"error"`
	}
	_ = json.NewDecoder(res.Body).Decode(&answer)
	return res.StatusCode, answer.Error, nil
}

// postOK posts a page event and fails the test unless the server logs it.
func postOK(t *testing.T, in *Instance, typ string, data map[string]string) {
	t.Helper()
	status, msg, err := post(context.Background(), in, "/api/events", labkit.PageEvent{Type: typ, Data: data})
	if err != nil || status != http.StatusNoContent {
		t.Fatalf("post %s: status %d %q %v", typ, status, msg, err)
	}
}

// fillForm does what the page does before a save: open the dialog and type the title.
func fillForm(t *testing.T, in *Instance) {
	t.Helper()
	postOK(t, in, EventDialogOpened, nil)
	postOK(t, in, EventFieldChanged, map[string]string{"field": "title", "value": "Spectral scan"})
}

func types(events []agent.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Type
	}
	return out
}

func get(t *testing.T, in *Instance, path string, v any) {
	t.Helper()
	res, err := http.Get(in.URL() + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

func TestSaveByFault(t *testing.T) {
	tests := []struct {
		fault   string
		status  int
		message string
		events  []string
		records []Record
		settled agent.Terminal
	}{
		{FaultNone, http.StatusOK, "", []string{EventCommitted, EventSaveCompleted},
			[]Record{{1, "Spectral scan", "north"}}, ""},
		{FaultRenamed, http.StatusOK, "", []string{EventCommitted, EventSaveCompleted},
			[]Record{{1, "Spectral scan", "north"}}, ""},
		{FaultNoticeNoCommit, http.StatusOK, "", []string{EventSaveCompleted}, []Record{}, agent.Failed},
		{FaultWrongRoom, http.StatusOK, "", []string{EventCommitted, EventSaveCompleted},
			[]Record{{1, "Spectral scan", "south"}}, agent.Failed},
		{FaultRefused, http.StatusConflict, "Save refused: North lab is closed for maintenance",
			[]string{EventRefused, EventAlertShown}, []Record{}, agent.Rejected},
	}
	for _, tt := range tests {
		t.Run(tt.fault, func(t *testing.T) {
			in := start(t, tt.fault, 30)
			fillForm(t, in)
			began := time.Now()
			status, msg, err := post(context.Background(), in, "/api/reservations", saveRequest{Title: "Spectral scan", Room: "north"})
			if err != nil || status != tt.status || msg != tt.message {
				t.Fatalf("save: status %d %q %v, want %d %q", status, msg, err, tt.status, tt.message)
			}
			if took := time.Since(began); took < 30*time.Millisecond {
				t.Errorf("save answered after %v, before the 30 ms latency", took)
			}
			// What the page does next.
			if tt.status == http.StatusOK {
				postOK(t, in, EventDialogClosed, nil)
				postOK(t, in, EventNoticeShown, map[string]string{"text": SavedNotice})
			} else {
				postOK(t, in, EventAlertShown, map[string]string{"text": msg})
			}
			want := []string{EventDialogOpened, EventFieldChanged, EventSaveRequested}
			want = append(want, tt.events...)
			if tt.status == http.StatusOK {
				want = append(want, EventDialogClosed, EventNoticeShown)
			}
			events := in.Events()
			if got := types(events); !reflect.DeepEqual(got, want) {
				t.Errorf("events %v, want %v", got, want)
			}
			for i, e := range events {
				if e.Seq != i+1 || (i > 0 && e.AtMS < events[i-1].AtMS) {
					t.Errorf("event %d has seq %d at %d ms", i, e.Seq, e.AtMS)
				}
			}
			var records []Record
			get(t, in, "/api/reservations", &records)
			if !reflect.DeepEqual(records, tt.records) {
				t.Errorf("records %+v, want %+v", records, tt.records)
			}
			check := in.Check(Requested)
			if check.Settled != tt.settled || check.Gate.Done != (tt.fault == FaultNone || tt.fault == FaultRenamed) {
				t.Errorf("check: gate %v settled %q, fault %s", check.Gate.Done, check.Settled, tt.fault)
			}
			if err := New().Replay(events); err != nil {
				t.Errorf("the live log does not replay: %v", err)
			}
		})
	}
}

func TestCancelledSaveCommitsNothing(t *testing.T) {
	in := start(t, FaultNone, 300)
	fillForm(t, in)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, err := post(ctx, in, "/api/reservations", saveRequest{Title: "Spectral scan", Room: "north"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("save error = %v, want the client's deadline", err)
	}
	wait, stop := context.WithTimeout(context.Background(), 2*time.Second)
	defer stop()
	if err := in.Quiesce(wait); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // past the latency: nothing may land late
	s := in.State()
	got := types(in.Events())
	if got[len(got)-1] != EventCancelled || s.Phase != PhaseCancelled || len(s.Records) != 0 {
		t.Errorf("events %v, phase %s, records %v; want cancelled and no record", got, s.Phase, s.Records)
	}
}

func TestCloseRefusesLateWork(t *testing.T) {
	in := start(t, FaultNone, 200)
	fillForm(t, in)
	var wg sync.WaitGroup
	wg.Go(func() {
		_, _, _ = post(context.Background(), in, "/api/reservations", saveRequest{Title: "Spectral scan", Room: "north"})
	})
	deadline := time.Now().Add(2 * time.Second)
	for in.State().Phase != PhasePending && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	before := len(in.Events())
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := in.Quiesce(ctx); err != nil {
		t.Fatal(err)
	}
	if status, _, err := post(context.Background(), in, "/api/events", labkit.PageEvent{Type: EventDialogClosed}); err == nil {
		t.Errorf("an event posted after Close got status %d, want a failed request", status)
	}
	if got := in.Events(); len(got) != before || len(in.State().Records) != 0 {
		t.Errorf("after Close the log grew to %v and records are %v", types(got), in.State().Records)
	}
	if err := in.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestQuiesceWaitsForASave(t *testing.T) {
	in := start(t, FaultNone, 150)
	fillForm(t, in)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _, _ = post(context.Background(), in, "/api/reservations", saveRequest{Title: "Spectral scan", Room: "north"})
	}()
	for deadline := time.Now().Add(5 * time.Second); in.State().Phase != PhasePending; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the save never became pending: phase %s", in.State().Phase)
		}
	}
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := in.Quiesce(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Quiesce during the save = %v, want a deadline error", err)
	}
	long, stop := context.WithTimeout(context.Background(), 2*time.Second)
	defer stop()
	if err := in.Quiesce(long); err != nil {
		t.Fatal(err)
	}
	if in.State().Phase != PhaseCompleted {
		t.Errorf("after Quiesce the save is %s, want completed", in.State().Phase)
	}
	<-done
}

func TestRequestsTheStateRefuses(t *testing.T) {
	in := start(t, FaultNone, 0)
	tests := []struct {
		name, path string
		body       any
		status     int
		message    string
	}{
		{"server-side event from the page", "/api/events", labkit.PageEvent{Type: EventCommitted, Data: map[string]string{"id": "1", "title": "x", "room": "north"}},
			http.StatusBadRequest, `event type "committed" cannot be posted by the page`},
		{"dialog closed while closed", "/api/events", labkit.PageEvent{Type: EventDialogClosed}, http.StatusBadRequest, "event 1 (dialog_closed): the dialog is already closed"},
		{"save with the dialog closed", "/api/reservations", saveRequest{Title: "Spectral scan", Room: "north"}, http.StatusBadRequest, "event 1 (save_requested): the dialog is closed"},
		{"not JSON", "/api/events", "nonsense", http.StatusBadRequest, "not the expected JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, msg, err := post(context.Background(), in, tt.path, tt.body)
			if err != nil || status != tt.status || !strings.Contains(msg, tt.message) {
				t.Errorf("status %d %q %v, want %d containing %q", status, msg, err, tt.status, tt.message)
			}
		})
	}
	if n := len(in.Events()); n != 0 {
		t.Errorf("refused requests logged %d events", n)
	}
}

func TestPageShowsTheFaultsButton(t *testing.T) {
	for fault, label := range map[string]string{FaultNone: ReserveLabel, FaultRenamed: RenamedLabel} {
		in := start(t, fault, 0)
		res, err := http.Get(in.URL())
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		page := string(body)
		for _, want := range []string{">" + label + "</button>", "<h1>Lab reservations</h1>", `<option value="north" selected>North lab</option>`, "<caption>Reservations</caption>"} {
			if !strings.Contains(page, want) {
				t.Errorf("fault %s: page lacks %q", fault, want)
			}
		}
		if fault == FaultRenamed && strings.Contains(page, ReserveLabel) {
			t.Errorf("renamed page still says %q", ReserveLabel)
		}
		res, err = http.Get(in.URL() + "assets/app.js")
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("app.js: %v %v", res.Status, err)
		}
		res.Body.Close()
	}
}

func TestStartRejectsBadArguments(t *testing.T) {
	if _, err := Start("", "haunted", 0); err == nil || !strings.Contains(err.Error(), "notice-no-commit") {
		t.Errorf("unknown fault error = %v, want one listing the faults", err)
	}
	if _, err := Start("", FaultNone, -1); err == nil {
		t.Error("negative latency accepted")
	}
}
