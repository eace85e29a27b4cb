package canvas

import (
	"embed"
	"net/http"

	"observatory/backend/labs/internal/labkit"
)

// files are the app's only page.
//
//go:embed page.html
var files embed.FS

var site = labkit.NewSite(files)

// Instance is one running copy of the board on its host, with its own store and event log.
// It is safe for concurrent use.
type Instance struct{ *labkit.App[State] }

// Start serves a fresh instance on an ephemeral port of host (127.0.0.1 when empty).
func Start(host, fault string) (*Instance, error) {
	return labkit.Launch(rules, host, fault, 0,
		func(app *labkit.App[State]) *Instance { return &Instance{app} }, (*Instance).routes)
}

// routes is the app's HTTP surface.
func (in *Instance) routes() http.Handler {
	mux := in.Routes(site, in.page, pageEvents)
	mux.HandleFunc("POST /api/moves", in.handleMove)
	return mux
}

// page is what the board shows for this instance's fault and current state.
func (in *Instance) page(http.ResponseWriter) any {
	return struct {
		Clipped bool
		State   State
	}{in.Fault() == FaultClippedToggle, in.State()}
}

// moveAnswer is what POST /api/moves answers: the board after the move, or why it was
// refused.
type moveAnswer struct {
	State State  `json:"state"`
	Error string `json:"error,omitempty"`
}

// handleMove makes a move, or logs it refused with why.
func (in *Instance) handleMove(w http.ResponseWriter, r *http.Request) {
	var req struct{ From, To string }
	if err := labkit.ReadJSON(r, &req); err != nil {
		labkit.WriteError(w, err)
		return
	}
	var why string
	err := in.Tx(func(tx *labkit.Tx[State]) error {
		s := tx.State()
		if why = legal(s, req.From, req.To); why != "" {
			return tx.Log(EventMoveRefused, map[string]string{"from": req.From, "to": req.To, "reason": why})
		}
		return tx.Log(EventMoved, map[string]string{"piece": s.Pieces[req.From], "from": req.From, "to": req.To})
	})
	if err != nil {
		labkit.WriteError(w, err)
		return
	}
	labkit.WriteJSON(w, http.StatusOK, moveAnswer{State: in.State(), Error: why})
}
