package booking

import (
	"errors"
	"net/http"

	"observatory/backend/labs/internal/labkit"
)

// routes is the app's HTTP surface.
func (in *Instance) routes() http.Handler {
	mux := in.Routes(site, in.page, pageEvents)
	mux.HandleFunc("GET /api/reservations", func(w http.ResponseWriter, r *http.Request) {
		labkit.WriteJSON(w, http.StatusOK, in.records())
	})
	mux.HandleFunc("POST /api/reservations", in.handleSave)
	return mux
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
	if err := labkit.ReadJSON(r, &req); err != nil {
		labkit.WriteError(w, err)
		return
	}
	if err := in.Log(EventSaveRequested, map[string]string{"title": req.Title, "room": req.Room}); err != nil {
		labkit.WriteError(w, err)
		return
	}
	if !in.Wait(r) {
		_ = in.Log(EventCancelled, nil) // the client is gone; nobody reads an answer
		return
	}
	refusal, err := in.finishSave(req.Title, req.Room)
	switch {
	case err != nil:
		labkit.WriteError(w, err)
	case refusal != "":
		labkit.WriteErrorStatus(w, http.StatusConflict, errors.New(refusal))
	default:
		labkit.WriteJSON(w, http.StatusOK, struct {
			Saved bool `json:"saved"`
		}{true})
	}
}
