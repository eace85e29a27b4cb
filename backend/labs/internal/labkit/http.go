package labkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// maxBody caps a request body; lab requests are a few hundred bytes.
const maxBody = 16 << 10

// ReadJSON decodes a small JSON body into v. It reads the body to its end so that the server
// notices at once when the client abandons the request.
func ReadJSON(r *http.Request, v any) error {
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

// WriteJSON answers with v as JSON.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // a write error means the client left
}

// WriteError answers with {"error": message}, with the status StatusOf gives err.
func WriteError(w http.ResponseWriter, err error) {
	WriteErrorStatus(w, StatusOf(err), err)
}

// WriteErrorStatus answers with {"error": message} and the given status: a refusal the app
// itself decides on (409 for a save the server refuses).
func WriteErrorStatus(w http.ResponseWriter, status int, err error) {
	WriteJSON(w, status, struct {
		Error string `json:"error"`
	}{err.Error()})
}

// StatusOf maps a store error to its HTTP status: 503 once closed, 400 otherwise (an event
// the app's state does not allow, a malformed request).
func StatusOf(err error) int {
	if errors.Is(err, ErrClosed) {
		return http.StatusServiceUnavailable
	}
	return http.StatusBadRequest
}
