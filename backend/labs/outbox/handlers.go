package outbox

import (
	"errors"
	"net/http"
	"slices"

	"observatory/backend/labs/internal/labkit"
)

// routes is the app's HTTP surface.
func (in *Instance) routes() http.Handler {
	mux := in.Routes(site, in.page, pageEvents)
	mux.HandleFunc("GET /api/messages", in.handleMessages)
	mux.HandleFunc("POST /api/messages", in.handleSend)
	return mux
}

// lookUpAnswer is what GET /api/messages?op_id=… answers: how many messages the store holds
// for the operation, and which.
type lookUpAnswer struct {
	OpID     string    `json:"op_id"`
	Found    int       `json:"found"`
	Messages []Message `json:"messages"`
}

// handleMessages serves the store as JSON: every sent message, or, with ?op_id=, a look-up of
// one operation, which is logged with its answer.
func (in *Instance) handleMessages(w http.ResponseWriter, r *http.Request) {
	if !r.URL.Query().Has("op_id") {
		labkit.WriteJSON(w, http.StatusOK, slices.Clone(in.State().Messages))
		return
	}
	op := r.URL.Query().Get("op_id")
	found, err := in.lookUp(op)
	if err != nil {
		labkit.WriteError(w, err)
		return
	}
	labkit.WriteJSON(w, http.StatusOK, lookUpAnswer{OpID: op, Found: len(found), Messages: append([]Message{}, found...)})
}

// sendRequest is the body of POST /api/messages.
type sendRequest struct {
	OpID    string `json:"op_id"`
	To      string `json:"to"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// sent is the answer to a send the server has stored.
var sent = struct {
	Sent bool `json:"sent"`
}{true}

// handleSend logs the request, waits the instance's latency, then commits and answers, or
// hangs up, as the fault says. A request abandoned during the wait is logged as cancelled and
// sends nothing; one whose operation id is already stored is answered without sending again.
func (in *Instance) handleSend(w http.ResponseWriter, r *http.Request) {
	var req sendRequest
	if err := labkit.ReadJSON(r, &req); err != nil {
		labkit.WriteError(w, err)
		return
	}
	duplicate, err := in.receive(req)
	switch {
	case err != nil:
		labkit.WriteError(w, err)
		return
	case duplicate:
		labkit.WriteJSON(w, http.StatusOK, sent)
		return
	}
	if !in.Wait(r) {
		_ = in.Log(EventCancelled, map[string]string{"op_id": req.OpID}) // nobody reads an answer
		return
	}
	out, err := in.finish(req)
	switch {
	case err != nil:
		labkit.WriteError(w, err)
	case out == hangUp:
		hangUpOn(w)
	default:
		labkit.WriteJSON(w, http.StatusOK, sent)
	}
}

// hangUpOn ends the exchange without an answer the page can use, as a network failure
// would. It sends a response head the browser must refuse (two different lengths) and closes
// the connection: the browser has received bytes, so it does not resend the request on its
// own as it would after a silent close, and the page's fetch fails.
func hangUpOn(w http.ResponseWriter) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(errors.Join(http.ErrAbortHandler, err)) // the server closes the connection
	}
	_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
	_ = buf.Flush()
	_ = conn.Close()
}
