package canvas

import (
	"bytes"
	_ "embed"
	"html/template"
	"net/http"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

//go:embed page.html
var pageHTML string

// page renders the app's only page.
var page = template.Must(template.New("page").Parse(pageHTML))

// Instance is one running copy of the board on 127.0.0.1, with its own store and event log.
// It is safe for concurrent use.
type Instance struct {
	fault string
	labkit.App[State]
}

// Start serves a fresh instance on an ephemeral port of 127.0.0.1.
func Start(host, fault string) (*Instance, error) {
	if err := checkFault(fault); err != nil {
		return nil, err
	}
	in := &Instance{fault: fault, App: labkit.NewApp(Initial(), Apply)}
	if err := in.Serve("canvas lab", host, in.routes()); err != nil {
		return nil, err
	}
	return in, nil
}

// Check evaluates the completion gate on the server's state now.
func (in *Instance) Check() agent.Check {
	s := in.State()
	g := Gate(s)
	settled, why := Settle(s, g)
	return agent.Check{Gate: g, Settled: settled, SettledReason: why}
}

// Settler takes the server's state now and returns whether waiting on a gate evaluated after
// it is pointless.
func (in *Instance) Settler() func(agent.Gate) (agent.Terminal, string) {
	s := in.State()
	return func(g agent.Gate) (agent.Terminal, string) { return Settle(s, g) }
}

// routes is the app's HTTP surface.
func (in *Instance) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", in.handlePage)
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		labkit.WriteJSON(w, http.StatusOK, in.State())
	})
	mux.HandleFunc("POST /api/events", in.PageEvents(pageEvents))
	mux.HandleFunc("POST /api/moves", in.handleMove)
	return mux
}

// handlePage renders the board for this instance's fault and current state.
func (in *Instance) handlePage(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	err := page.Execute(&buf, struct {
		Clipped bool
		State   State
	}{in.fault == FaultClippedToggle, in.State()})
	if err != nil {
		http.Error(w, "render the board: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes()) // a write error means the client left
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
