package httpapi

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"observatory/app"
)

// message is what travels over the events WebSocket.
type message struct {
	Name string `json:"name"`
	Data any    `json:"data"`
}

// hub fans events out to every connected WebSocket. It implements app.Emitter. A client too
// slow to keep up loses its connection rather than slowing the run down; before that, once
// half its queue is waiting, it misses live frames (app.EventLive), which the next frame
// replaces anyway, so that frames never crowd out the run's own events.
type hub struct {
	mu      sync.Mutex
	clients map[chan message]struct{}
}

func newHub() *hub { return &hub{clients: map[chan message]struct{}{}} }

// Emit sends an event to every client.
func (h *hub) Emit(name string, data any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		if name == app.EventLive && len(c) >= cap(c)/2 {
			continue
		}
		select {
		case c <- message{Name: name, Data: data}:
		default:
			delete(h.clients, c)
			close(c)
		}
	}
}

func (h *hub) add() chan message {
	c := make(chan message, 256)
	h.mu.Lock()
	h.clients[c] = struct{}{}
	h.mu.Unlock()
	return c
}

func (h *hub) remove(c chan message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		close(c)
	}
}

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
