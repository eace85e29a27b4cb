package httpapi

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gorilla/websocket"

	"observatory/app"
	"observatory/backend/fanout"
)

// message is what travels over the events WebSocket.
type message struct {
	Name string `json:"name"`
	Data any    `json:"data"`
}

// hub fans events out to every connected WebSocket. It implements app.Emitter, and
// app.Audience: a serve with no page open has nobody watching. A client too slow to keep up
// loses its connection rather than slowing the run down; before that it misses live frames
// (app.EventLive), which the next frame replaces anyway (see fanout.Feed).
type hub struct {
	clients fanout.Feed[message]
}

// clientQueue is how many events a client may fall behind.
const clientQueue = 256

func newHub() *hub { return &hub{} }

// Emit sends an event to every client.
func (h *hub) Emit(name string, data any) {
	h.clients.Send(message{Name: name, Data: data}, name == app.EventLive)
}

// Watching says whether a page is connected.
func (h *hub) Watching() bool { return h.clients.Len() > 0 }

func (h *hub) add() chan message { return h.clients.Subscribe(clientQueue) }

func (h *hub) remove(c chan message) { h.clients.Unsubscribe(c) }

// upgrader keeps gorilla's default origin check: only pages served by this server connect.
var upgrader = websocket.Upgrader{}

func (h *hub) serve(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the client
	}
	c := h.add()
	defer h.remove(c)
	defer conn.Close()
	go func() { // notice the client going away
		for {
			if _, _, err := conn.NextReader(); err != nil {
				h.remove(c)
				return
			}
		}
	}()
	for m := range c {
		_ = conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if err := conn.WriteJSON(m); err != nil {
			slog.Debug("events client dropped", "err", err)
			return
		}
	}
}
