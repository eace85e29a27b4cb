package booking

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// maxBody caps a request body; the app's requests are a few hundred bytes.
const maxBody = 16 << 10

// routes is the app's HTTP surface.
func (in *Instance) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", in.handlePage)
	mux.Handle("GET /assets/", http.FileServerFS(assets))
	mux.HandleFunc("GET /api/reservations", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, in.records())
	})
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, in.State())
	})
	mux.HandleFunc("POST /api/reservations", in.handleSave)
	mux.HandleFunc("POST /api/events", in.handleEvent)
	return mux
}

// pageEvent is what the page posts to /api/events.
type pageEvent struct {
	Type string            `json:"type"`
	Data map[string]string `json:"data"`
}

// handleEvent logs one event the page reports. Server-side types are refused.
func (in *Instance) handleEvent(w http.ResponseWriter, r *http.Request) {
	var ev pageEvent
	if err := readJSON(r, &ev); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if !pageEvents[ev.Type] {
		writeError(w, http.StatusBadRequest, fmt.Errorf("event type %q cannot be posted by the page", ev.Type))
		return
	}
	if err := in.log(ev.Type, ev.Data); err != nil {
		writeError(w, statusOf(err), err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// saveRequest is the body of POST /api/reservations.
type saveRequest struct {
	Title string `json:"title"`
	Room  string `json:"room"`
}

// handleSave logs the request, waits the instance's latency and answers according to the
// fault. A request abandoned during the wait is logged as cancelled and commits nothing.
func (in *Instance) handleSave(w http.ResponseWriter, r *http.Request) {
	var req saveRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if err := in.log(EventSaveRequested, map[string]string{"title": req.Title, "room": req.Room}); err != nil {
		writeError(w, statusOf(err), err)
		return
	}
	if !sleep(r.Context(), in.latency) {
		_ = in.log(EventCancelled, nil) // the client is gone; nobody reads an answer
		return
	}
	refusal, err := in.finishSave(req.Title, req.Room)
	switch {
	case err != nil:
		writeError(w, statusOf(err), err)
	case refusal != "":
		writeError(w, http.StatusConflict, errors.New(refusal))
	default:
		writeJSON(w, http.StatusOK, struct {
			Saved bool `json:"saved"`
		}{true})
	}
}

// sleep waits d and reports true, or false as soon as ctx ends.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return ctx.Err() == nil
	case <-ctx.Done():
		return false
	}
}

// statusOf maps a logging error to its HTTP status: 503 once closed, 400 for an event the
// app's state does not allow.
func statusOf(err error) int {
	if errors.Is(err, errClosed) {
		return http.StatusServiceUnavailable
	}
	return http.StatusBadRequest
}

// readJSON decodes a small JSON body into v. It reads the body to its end so that the server
// notices at once when the client abandons the request.
func readJSON(r *http.Request, v any) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return fmt.Errorf("read the request body: %w", err)
	}
	if len(body) > maxBody {
		return fmt.Errorf("request body over %d bytes", maxBody)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("request body is not the expected JSON: %w", err)
	}
	return nil
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // a write error means the client left
}

// writeError answers with {"error": message}.
func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, struct {
		Error string `json:"error"`
	}{err.Error()})
}
