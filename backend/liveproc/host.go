package liveproc

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"observatory/backend/agent"
	"observatory/backend/internal/filelock"
	"observatory/backend/jsonstrict"
	"observatory/backend/runner"
)

// subscriberBuffer is how many messages a window may fall behind before it is disconnected
// (it reconnects, and reads the backlog again); screencast frames are dropped for it instead.
const subscriberBuffer = 512

// Host is a run offered to the windows of its data folder, from the process that runs it.
// Its methods may be called on a nil *Host, which offers nothing: a run whose offer failed
// runs all the same.
type Host struct {
	info     Info
	infoPath string
	lock     *os.File
	lockPath string
	srv      *http.Server
	closing  chan struct{}

	backlog Backlog

	mu   sync.Mutex
	last int
	asks map[string]*hostAsk
	subs map[chan Message]struct{}
}

type hostAsk struct {
	ask     Ask
	answers chan agent.ApprovalAnswer // buffered: an answer never waits
}

// Offer offers run info (its RunID, Command and Task) to the windows of dataDir: it listens
// on 127.0.0.1 and writes the discovery file, until Close.
func Offer(dataDir string, info Info) (*Host, error) {
	d := dir(dataDir)
	if err := os.MkdirAll(d, 0o700); err != nil {
		return nil, fmt.Errorf("creating %s: %w", d, err)
	}
	sweep(d) // what processes that died left
	lock, lockPath, err := filelock.Fresh(d, func() string { return info.RunID + lockExt })
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = filelock.RemoveLocked(lock, lockPath)
		return nil, fmt.Errorf("listening for windows: %w", err)
	}
	info.Addr, info.Token, info.PID = ln.Addr().String(), rand.Text(), os.Getpid()
	if info.Started.IsZero() {
		info.Started = time.Now()
	}
	h := &Host{info: info, infoPath: filepath.Join(d, info.RunID+infoExt), lock: lock, lockPath: lockPath,
		closing: make(chan struct{}), asks: map[string]*hostAsk{}, subs: map[chan Message]struct{}{}}
	if err := writeInfo(h.infoPath, info); err != nil {
		ln.Close()
		_ = filelock.RemoveLocked(lock, lockPath)
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /events", h.serveEvents)
	mux.HandleFunc("POST /answer", h.serveAnswer)
	h.srv = &http.Server{Handler: h.guard(mux), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = h.srv.Serve(ln) }()
	return h, nil
}

// writeInfo writes info to path (0600) at once: a reader sees all of it or no file.
func writeInfo(path string, info Info) error {
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
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
// the run's events and disconnected, and the listener closes.
func (h *Host) Close() error {
	if h == nil {
		return nil
	}
	err := os.Remove(h.infoPath)
	close(h.closing)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = h.srv.Shutdown(ctx)
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
	h.broadcast(Message{Seq: n.Seq, Progress: &n.Progress})
}

// Watched says whether a window is watching the run now.
func (h *Host) Watched() bool {
	if h == nil {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs) > 0
}

// Approver asks the windows, for attempt slug: each request is sent to every window
// watching, and to each that connects while it waits; the first answer counts. It waits
// until ctx ends (the task's limit, the run's end), with no answer then. Nil on a nil Host.
func (h *Host) Approver(slug string) agent.Approver {
	if h == nil {
		return nil
	}
	return windows{h, slug}
}

type windows struct {
	h    *Host
	slug string
}

func (w windows) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	h := w.h
	h.mu.Lock()
	h.last++
	a := &hostAsk{ask: Ask{ID: strconv.Itoa(h.last), Slug: w.slug, Request: req, Open: true}, answers: make(chan agent.ApprovalAnswer, 1)}
	h.asks[a.ask.ID] = a
	open := a.ask
	h.broadcast(Message{Ask: &open})
	h.mu.Unlock()

	closed := a.ask
	closed.Open = false
	var err error
	select {
	case closed.Answer = <-a.answers:
	case <-ctx.Done():
		closed.Answer, err = agent.AnswerNone, ctx.Err()
	}
	h.mu.Lock()
	if _, waiting := h.asks[a.ask.ID]; !waiting && err != nil {
		closed.Answer, err = <-a.answers, nil // answered as the wait ended
	}
	delete(h.asks, a.ask.ID)
	h.broadcast(Message{Ask: &closed})
	h.mu.Unlock()
	return closed.Answer, err
}

// broadcast sends m to every window; h.mu is held. A window too far behind is disconnected
// (it reconnects and reads the backlog), except that a screencast frame is only skipped.
func (h *Host) broadcast(m Message) {
	for ch := range h.subs {
		select {
		case ch <- m:
		default:
			if m.Progress == nil || m.Progress.Kind != runner.Screencast {
				close(ch)
				delete(h.subs, ch)
			}
		}
	}
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
	for n := 1; n <= h.last; n++ {
		if a, ok := h.asks[strconv.Itoa(n)]; ok {
			open := a.ask
			first = append(first, Message{Ask: &open})
		}
	}
	ch := make(chan Message, subscriberBuffer)
	h.subs[ch] = struct{}{}
	return first, ch
}

func (h *Host) unsubscribe(ch chan Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[ch]; ok {
		delete(h.subs, ch)
		close(ch)
	}
}

// serveEvents streams the run's messages to a window, one JSON object a line, until the
// window goes, falls too far behind, or the offer is withdrawn.
func (h *Host) serveEvents(w http.ResponseWriter, r *http.Request) {
	first, ch := h.subscribe()
	defer h.unsubscribe(ch)
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	send := func(m Message) bool {
		if enc.Encode(m) != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
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
// terminal or by another window, or out of time) is a conflict.
func (h *Host) serveAnswer(w http.ResponseWriter, r *http.Request) {
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
	h.mu.Lock()
	ask, ok := h.asks[a.ID]
	if ok {
		delete(h.asks, a.ID)
		ask.answers <- a.Answer
	}
	h.mu.Unlock()
	if !ok {
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
		case r.Host != h.info.Addr:
			http.Error(w, "this server answers only to "+h.info.Addr, http.StatusMisdirectedRequest)
		case r.Header.Get("Origin") != "" || r.Header.Get("Sec-Fetch-Site") != "":
			http.Error(w, "refused: no web page may use this server", http.StatusForbidden)
		case subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte("Bearer "+h.info.Token)) != 1:
			http.Error(w, "refused: the token of the discovery file is needed", http.StatusUnauthorized)
		default:
			next.ServeHTTP(w, r)
		}
	})
}
