package outbox

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"observatory/backend/labs/internal/labkit"
)

// start serves an instance with the fault and a short latency, closed when t ends.
func start(t *testing.T, fault string) *Instance {
	t.Helper()
	in, err := Start("", fault, 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = in.Close() })
	return in
}

func post(t *testing.T, in *Instance, path string, v any) (*http.Response, error) {
	t.Helper()
	b, _ := json.Marshal(v)
	return http.Post(in.URL()+strings.TrimPrefix(path, "/"), "application/json", bytes.NewReader(b))
}

// compose posts the page's field events for the requested message.
func compose(t *testing.T, in *Instance) {
	t.Helper()
	for _, f := range [][2]string{{FieldTo, Requested.To}, {FieldSubject, Requested.Subject}, {FieldBody, Requested.Body}} {
		res, err := post(t, in, "/api/events", labkit.PageEvent{Type: EventFieldChanged, Data: map[string]string{"field": f[0], "value": f[1]}})
		if err != nil || res.StatusCode != http.StatusNoContent {
			t.Fatalf("field %s: %v %v", f[0], res, err)
		}
	}
}

func sendOp(t *testing.T, in *Instance, op string) (*http.Response, error) {
	return post(t, in, "/api/messages", sendRequest{OpID: op, To: Requested.To, Subject: Requested.Subject, Body: Requested.Body})
}

func lookUpOp(t *testing.T, in *Instance, op string) lookUpAnswer {
	t.Helper()
	res, err := http.Get(in.URL() + "api/messages?op_id=" + op)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var a lookUpAnswer
	if err := json.NewDecoder(res.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestFaultsOverHTTP sends op "a" twice to each fault mode: the first send's answer, what the
// store holds after it, and after a retry with the same operation id.
func TestFaultsOverHTTP(t *testing.T) {
	tests := []struct {
		fault           string
		firstAnswered   bool
		afterFirst      int
		afterRetry      int
		secondAnswered  bool
		messagesInStore int
	}{
		{FaultNone, true, 1, 1, true, 1},
		{FaultResponseLost, false, 1, 1, true, 1},
		{FaultDropped, false, 0, 1, true, 1},
		{FaultDeliveredTwice, false, 2, 2, true, 2},
		{FaultSlowSend, true, 1, 1, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.fault, func(t *testing.T) {
			in := start(t, tt.fault)
			compose(t, in)
			res, err := sendOp(t, in, "a")
			if answered := err == nil && res.StatusCode == http.StatusOK; answered != tt.firstAnswered {
				t.Errorf("first send answered %v (%v), want %v", answered, err, tt.firstAnswered)
			}
			if got := lookUpOp(t, in, "a").Found; got != tt.afterFirst {
				t.Errorf("after the first send the store holds %d for op a, want %d", got, tt.afterFirst)
			}
			res, err = sendOp(t, in, "a")
			if answered := err == nil && res.StatusCode == http.StatusOK; answered != tt.secondAnswered {
				t.Errorf("retry answered %v (%v), want %v", answered, err, tt.secondAnswered)
			}
			if got := lookUpOp(t, in, "a").Found; got != tt.afterRetry {
				t.Errorf("after the retry the store holds %d for op a, want %d", got, tt.afterRetry)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if err := in.Quiesce(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := Rebuild(in.Events()); err != nil {
				t.Errorf("the live log does not replay: %v", err)
			}
			if n := len(in.State().Messages); n != tt.messagesInStore {
				t.Errorf("the store holds %d messages, want %d", n, tt.messagesInStore)
			}
		})
	}
}

func TestThePageCannotPostServerEvents(t *testing.T) {
	in := start(t, FaultNone)
	res, err := post(t, in, "/api/events", labkit.PageEvent{Type: EventCommitted, Data: map[string]string{}})
	if err != nil || res.StatusCode != http.StatusBadRequest {
		t.Errorf("posting a commit: %v %v, want 400", res, err)
	}
}

func TestAClosedInstanceRefusesSends(t *testing.T) {
	in := start(t, FaultNone)
	compose(t, in)
	_ = in.Close()
	if res, err := sendOp(t, in, "a"); err == nil && res.StatusCode == http.StatusOK {
		t.Error("a closed instance answered a send")
	}
	if n := len(in.State().Messages); n != 0 {
		t.Errorf("a closed instance stored %d messages", n)
	}
}
