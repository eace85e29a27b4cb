package liveproc

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"observatory/backend/agent"
	"observatory/backend/asking"
	"observatory/backend/fanout"
	"observatory/backend/internal/filelock"
	"observatory/backend/jsonstrict"
	"observatory/backend/runner"
)

// subscriberBuffer is how many messages a window may fall behind before it is disconnected
// (it reconnects, and reads the backlog again); screencast frames are dropped for it before.
const subscriberBuffer = 512

// writeTimeout bounds each write to a window: one that stops reading is disconnected.
const writeTimeout = 10 * time.Second

// ErrAnsweredElsewhere is why a question put beside the windows' (Approver's also) closes
// when a window's answer was taken.
var ErrAnsweredElsewhere = errors.New("answered in a window")

// Host is a run offered to the windows of its data folder, from the process that runs it.
// Its methods may be called on a nil *Host, which offers nothing: a run whose offer failed
// runs all the same.
type Host struct {
	info     Info
	infoPath string
	lock     *os.File
	lockPath string
	srv      *http.Server
	unlisten func() // removes the socket's private folder, if it has one
	closing  chan struct{}
	// client says the process that started this one is on the agent's side too (see
	// RefuseClient).
	client  atomic.Bool
	streams sync.WaitGroup // the windows' event streams being served

	// mu orders what the windows are sent with what a window connecting is sent first.
	mu      sync.Mutex
	backlog Backlog
	asks    asking.Book[Ask]
	windows fanout.Feed[Message]
	// refused are the answers and followers refused since the last question closed.
	refused []agent.Refusal
}

// Offer offers run info (its RunID, Command and Task) to the windows of dataDir: it listens
// on a Unix socket (on Windows, 127.0.0.1) and writes the discovery file, until Close. Each
// connection is known by its peer process, as the system tells it: one on the agent's side
// (everything this process starts; see also RefuseClient) may neither follow the run nor
// answer it, and the attempt is recorded with the question's answer.
func Offer(dataDir string, info Info) (*Host, error) {
	d := dir(dataDir)
	if err := makeDir(d); err != nil {
		return nil, err
	}
	sweep(d) // what processes that died left
	lock, lockPath, err := filelock.Fresh(d, func() string { return info.RunID + lockExt })
	if err != nil {
		return nil, err
	}
	ln, addr, unlisten, err := listen(d, info.RunID)
	if err != nil {
		_ = filelock.RemoveLocked(lock, lockPath)
		return nil, fmt.Errorf("listening for windows: %w", err)
	}
	info.Addr, info.Token, info.PID = addr, rand.Text(), os.Getpid()
	if info.Started.IsZero() {
		info.Started = time.Now()
	}
	h := &Host{info: info, infoPath: filepath.Join(d, info.RunID+infoExt), lock: lock, lockPath: lockPath,
		unlisten: unlisten, closing: make(chan struct{})}
	if err := writeInfo(h.infoPath, info); err != nil {
		ln.Close()
		unlisten()
		_ = filelock.RemoveLocked(lock, lockPath)
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /events", h.serveEvents)
	mux.HandleFunc("POST /answer", h.serveAnswer)
	h.srv = &http.Server{Handler: h.guard(mux), ReadHeaderTimeout: 10 * time.Second, ConnContext: withPeer}
	go func() { _ = h.srv.Serve(ln) }()
	return h, nil
}

// writeInfo writes info to path (0600) at once: a reader sees all of it or no file.
func writeInfo(path string, info Info) error {
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), tmpPrefix+"*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Close(), os.Rename(tmp.Name(), path)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Close withdraws the offer: the discovery file goes, each window is sent what is left of
// the run's events and disconnected (at once, after a grace, one that stopped reading), and
// the listener closes.
func (h *Host) Close() error {
	if h == nil {
		return nil
	}
	err := os.Remove(h.infoPath)
	close(h.closing)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if h.srv.Shutdown(ctx) != nil {
		_ = h.srv.Close() // a stream stuck writing to a window that stopped reading ends now
	}
	h.streams.Wait()
	h.unlisten()
	return errors.Join(err, filelock.RemoveLocked(h.lock, h.lockPath))
}

// Progress sends p to the windows watching, and keeps it for those that come later.
func (h *Host) Progress(p runner.Progress) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.backlog.Add(p)
	h.windows.Send(Message{Seq: n.Seq, Progress: &n.Progress}, p.Kind == runner.Screencast)
}

// Watched says whether a window is watching the run now: one with a person before it (see
// Watch).
func (h *Host) Watched() bool {
	return h != nil && h.windows.Len() > 0
}

// RefuseClient puts the process that started this one, and all it starts, on the agent's
// side: observatory mcp over standard input, whose parent is the MCP client.
// It says so in the discovery file, for the windows' own check (AgentSide).
func (h *Host) RefuseClient() {
	if h == nil {
		return
	}
	h.client.Store(true)
	h.mu.Lock()
	h.info.Client = os.Getppid()
	info := h.info
	h.mu.Unlock()
	_ = writeInfo(h.infoPath, info) // without it a window's own check misses the client only
}

// Refused takes the refusals recorded since the last question closed: for a question no
// window was asked (held at once), so that they are recorded all the same.
func (h *Host) Refused() []agent.Refusal {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.refused
	h.refused = nil
	return out
}

// refuse records that peer was refused, once for each peer and reason until the next
// question closes, and says why to the peer.
func (h *Host) refuse(w http.ResponseWriter, peer Peer, why, what string) {
	by := describe(peer.PID)
	why = "it tried to " + what + ", and is " + why
	h.mu.Lock()
	if !slices.ContainsFunc(h.refused, func(r agent.Refusal) bool { return r.By == by && r.Why == why }) && len(h.refused) < maxRefused {
		h.refused = append(h.refused, agent.Refusal{By: by, At: time.Now(), Why: why})
	}
	h.mu.Unlock()
	http.Error(w, "refused: only a person answers, and "+by+" is not one: "+why, http.StatusForbidden)
}

// maxRefused bounds the refusals kept for one question: an agent trying in a loop is
// recorded once for each of its processes.
const maxRefused = 32

// Approver asks the windows, for attempt slug: each request is sent to every window
// watching, and to each that connects while it waits. It is put to also as well (the
// terminal; nil for none), which is told ErrAnsweredElsewhere when a window answers first.
// The first answer taken, from either, is the run's, and the windows are told it. It waits
// until ctx ends (the task's limit, the run's end), with no answer then. Nil on a nil Host.
func (h *Host) Approver(slug string, also agent.Approver) agent.Approver {
	if h == nil {
		return nil
	}
	return windows{h, slug, also}
}

type windows struct {
	h    *Host
	slug string
	also agent.Approver
}

func (w windows) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	got, err := w.Answered(ctx, req)
	return got.Answer, err
}

// Answered is Approve with who answered ("terminal", "window (serve, pid N)") and the
// answers refused while the question was open.
func (w windows) Answered(ctx context.Context, req agent.ApprovalRequest) (agent.Answered, error) {
	h := w.h
	h.mu.Lock()
	q := h.asks.Open(func(id string) Ask { return Ask{ID: id, Slug: w.slug, Request: req, Open: true} })
	open := q.Ask
	h.windows.Send(Message{Ask: &open}, false)
	h.mu.Unlock()
	if w.also != nil {
		local, stop := context.WithCancelCause(ctx)
		defer stop(ErrAnsweredElsewhere)
		go func() {
			if got, _ := agent.AnswerOf(local, w.also, req); got.Answer == agent.AnswerApprove || got.Answer == agent.AnswerDeny {
				h.asks.Answer(q.ID, got) // refused if a window's came first
			}
		}()
	}
	got, err := q.Wait(ctx)
	closed := q.Ask
	closed.Open, closed.Answer = false, got.Answer
	h.windows.Send(Message{Ask: &closed}, false)
	got.Refused = append(got.Refused, h.Refused()...)
	return got, err
}

// subscribe adds a window: what it must be sent first (the backlog, then the asks waiting)
// and its channel for what follows, taken at the same moment so nothing falls between.
func (h *Host) subscribe() ([]Message, chan Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var first []Message
	for _, n := range h.backlog.Events() {
		first = append(first, Message{Seq: n.Seq, Progress: &n.Progress})
	}
	for _, a := range h.asks.Pending() {
		first = append(first, Message{Ask: &a})
	}
	return first, h.windows.Subscribe(subscriberBuffer)
}

// serveEvents streams the run's messages to a window, one JSON object a line, until the
// window goes, falls too far behind or stops reading, or the offer is withdrawn.
func (h *Host) serveEvents(w http.ResponseWriter, r *http.Request) {
	if why := agentSide(peerIn(r.Context()), h.client.Load()); why != "" {
		h.refuse(w, peerIn(r.Context()), why, "follow the run's approvals")
		return
	}
	h.streams.Add(1)
	defer h.streams.Done()
	first, ch := h.subscribe()
	defer h.windows.Unsubscribe(ch)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush() // the window knows it is connected before the first message
	enc := json.NewEncoder(w)
	send := func(m Message) bool {
		return rc.SetWriteDeadline(time.Now().Add(writeTimeout)) == nil && enc.Encode(m) == nil && rc.Flush() == nil
	}
	for _, m := range first {
		if !send(m) {
			return
		}
	}
	for {
		select {
		case m, ok := <-ch:
			if !ok || !send(m) {
				return
			}
		case <-r.Context().Done():
			return
		case <-h.closing:
			for { // what was sent before the offer was withdrawn: the run's end
				select {
				case m, ok := <-ch:
					if !ok || !send(m) {
						return
					}
				default:
					return
				}
			}
		}
	}
}

// serveAnswer takes a window's answer to an open ask; an ask no longer open (answered on the
// terminal or by another window, or out of time) is a conflict, and nothing is taken.
func (h *Host) serveAnswer(w http.ResponseWriter, r *http.Request) {
	peer := peerIn(r.Context())
	if why := agentSide(peer, h.client.Load()); why != "" {
		h.refuse(w, peer, why, "answer the run's approvals")
		return
	}
	var a answer
	body, err := io.ReadAll(io.LimitReader(r.Body, 4<<10))
	if err == nil {
		err = jsonstrict.Unmarshal(body, &a)
	}
	if err != nil {
		http.Error(w, "an answer is {id, answer}: "+err.Error(), http.StatusBadRequest)
		return
	}
	if a.Answer != agent.AnswerApprove && a.Answer != agent.AnswerDeny {
		http.Error(w, fmt.Sprintf("answer %q: want approve or deny", a.Answer), http.StatusBadRequest)
		return
	}
	if !h.asks.Answer(a.ID, agent.Answered{Answer: a.Answer, By: windowName(a.Window, peer)}) {
		http.Error(w, "approval request "+a.ID+" is not waiting: it was answered, or its time ran out", http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// guard admits only the windows of this machine's user: the Host must be the address
// listened on (a page whose DNS name rebinds to 127.0.0.1 sends its own), no web page's
// request (a browser adds Origin or Sec-Fetch-Site to what a page sends), and the token.
func (h *Host) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Host != host(h.info.Addr):
			http.Error(w, "this server answers only to "+host(h.info.Addr), http.StatusMisdirectedRequest)
		case r.Header.Get("Origin") != "" || r.Header.Get("Sec-Fetch-Site") != "":
			http.Error(w, "refused: no web page may use this server", http.StatusForbidden)
		case subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte("Bearer "+h.info.Token)) != 1:
			http.Error(w, "refused: the token of the discovery file is needed", http.StatusUnauthorized)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// windowName says, for the record, which window answered: "window (serve, pid 4242)". kind
// is what the window says it is; the pid is the system's.
func windowName(kind string, peer Peer) string {
	var parts []string
	if kind == "desktop" || kind == "serve" {
		parts = append(parts, kind)
	}
	if peer.Known {
		parts = append(parts, fmt.Sprintf("pid %d", peer.PID))
	}
	if len(parts) == 0 {
		return "window"
	}
	return "window (" + strings.Join(parts, ", ") + ")"
}
