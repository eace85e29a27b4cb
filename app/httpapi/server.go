package httpapi

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"strings"
	"time"

	"observatory/app"
	"observatory/app/apierror"
)

// maxBody bounds a call's arguments; an imported run file is the largest (see runfile).
const maxBody = 16 << 20

// Handler serves the services, their events, run media and the frontend, to this machine's
// user only (see guard).
type Handler struct {
	mux   *http.ServeMux
	hub   *hub
	guard *guard
	files *files
	// stall is Limits.Stall, set by Server; 0 bounds nothing.
	stall time.Duration
}

// eventsPath is where the events' WebSocket is served.
const eventsPath = "/api/events"

// New builds the handler and connects the services' events to its WebSocket. token is the
// access token the printed address carries; every request needs it (as the session cookie
// that opening that address sets).
func New(services *app.Services, assets fs.FS, dataDir, token string) *Handler {
	h := &Handler{mux: http.NewServeMux(), hub: newHub(), guard: &guard{token: token}, files: newFiles()}
	services.SetEmitter(h.hub)
	d := newDispatcher(services.Bind()...)
	h.mux.HandleFunc("POST /api/{service}/{method}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("service") == "Approvals" && r.PathValue("method") == "Answer" {
			if why := agentSide(r, dataDir); why != "" {
				refuseAgentSide(w, why)
				return
			}
		}
		serveCall(w, r, d)
	})
	h.mux.HandleFunc("GET "+eventsPath, h.hub.serve)
	h.mux.HandleFunc("GET /bundle/{id}", h.files.track(func(w http.ResponseWriter, r *http.Request) {
		serveBundle(w, r, services.Transfer)
	}))
	h.mux.HandleFunc("POST /upload/{name}", h.files.track(func(w http.ResponseWriter, r *http.Request) {
		serveUpload(w, r, services.Transfer)
	}))
	h.mux.Handle("GET "+app.MediaPrefix, app.MediaHandler(app.MediaRoot(dataDir)))
	h.mux.Handle("GET /", http.FileServerFS(assets))
	return h
}

// ServeHTTP implements http.Handler: the deadlines that move with progress (see Limits)
// first, then the guard, then the routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w, r = progressing(w, r, h.stall)
	if h.guard.admit(w, r) {
		h.mux.ServeHTTP(w, r)
	}
}

func serveCall(w http.ResponseWriter, r *http.Request, d *dispatcher) {
	// Requiring JSON forces a CORS preflight, which this server never grants, so no other
	// site open in the user's browser can call these methods.
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeJSON(w, http.StatusUnsupportedMediaType, map[string]any{"error": apierror.New(apierror.Invalid, "calls must be sent as application/json")})
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": apierror.New(apierror.Invalid, "reading the request: "+err.Error())})
		return
	}
	if len(body) > maxBody {
		writeJSON(w, http.StatusRequestEntityTooLarge, map[string]any{"error": apierror.New(apierror.Invalid, "the request is larger than 16 MiB")})
		return
	}
	result, err := d.call(r.PathValue("service"), r.PathValue("method"), body)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": result})
}

// serveBundle sends a run's bundle as a download. It is written to a temporary file in the
// data folder first (see Transfer.BundleFile), not to memory (a bundle can be hundreds of
// MiB), so that a failure is still an honest error status rather than a truncated zip.
func serveBundle(w http.ResponseWriter, r *http.Request, files *app.Transfer) {
	id := r.PathValue("id")
	tmp, remove, err := files.BundleFile(id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	defer remove()
	name := "observatory-run-" + id + ".zip"
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	http.ServeContent(w, r, name, time.Time{}, tmp)
}

// serveUpload imports the run file or bundle in the request body. Like calls, it insists on
// a non-simple content type, so other sites cannot post here without a refused preflight.
func serveUpload(w http.ResponseWriter, r *http.Request, files *app.Transfer) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/octet-stream" {
		writeJSON(w, http.StatusUnsupportedMediaType, map[string]any{"error": apierror.New(apierror.Invalid, "uploads must be sent as application/octet-stream")})
		return
	}
	res, err := files.ImportUpload(r.Context(), r.PathValue("name"), r.Body)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": res})
}

// writeError answers a failed call or upload with {"error": {"kind", "message", "path"}} and
// the status of its kind (see apierror), the same error the desktop's window receives.
func writeError(w http.ResponseWriter, err error) {
	e := apierror.Of(err)
	writeJSON(w, e.Kind.Status(), map[string]any{"error": e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Addr normalises a listen address to loopback when no host is given, and refuses any host
// that is not this machine's loopback: serve is for the user at this machine.
func Addr(a string) (string, error) {
	if strings.HasPrefix(a, ":") {
		a = "127.0.0.1" + a
	}
	host, _, err := net.SplitHostPort(a)
	if err != nil {
		return "", fmt.Errorf("listen address %q: %w", a, err)
	}
	if !loopbackHost(host) {
		return "", fmt.Errorf("listen address %q: serve listens on loopback only (127.0.0.1, ::1 or localhost), so no other machine can drive your browser", a)
	}
	return a, nil
}
