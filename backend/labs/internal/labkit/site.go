package labkit

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
)

// kit holds what every lab's page shares: the layout its page fills, and the script it may
// load before its own.
//
//go:embed site
var kit embed.FS

// layout is the page every lab serves: its title, head and body are the lab's page.html,
// which defines the templates "title", "head" (optional: a style sheet, an inline script) and
// "body", each executed with the page's data. A site with assets loads its app.css, labkit's
// lab.js, then its app.js.
var layout = template.Must(template.ParseFS(kit, "site/layout.html"))

// Site is a lab's page and the files it loads.
type Site struct {
	page   *template.Template
	files  fs.FS
	assets bool // files has a folder assets/
}

// NewSite reads a lab's site from files: page.html, the lab's part of the layout, and the
// folder assets/ when there is one (app.css, app.js and what they load), served under
// /assets/. It panics on a page that is not a
// template, as template.Must does: a lab's page is built into the binary.
func NewSite(files fs.FS) Site {
	page := template.Must(template.Must(layout.Clone()).ParseFS(files, "page.html"))
	_, err := fs.Stat(files, "assets")
	return Site{page: page, files: files, assets: err == nil}
}

// Render answers with the page rendered from data, never cached.
func (s Site) Render(w http.ResponseWriter, data any) {
	var buf bytes.Buffer
	err := s.page.ExecuteTemplate(&buf, "layout.html", struct {
		Assets bool
		Page   any
	}{s.assets, data})
	if err != nil {
		http.Error(w, "render the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes()) // a write error means the client left
}

// Routes is what every lab's app serves: its page at / (data returns what the page's template
// reads, and may set a header of the answer, a cookie), labkit's script at /labkit/lab.js, the
// site's assets under /assets/, the app's state as JSON at GET /api/state, and, when
// pageEvents allows any, the events the page reports at POST /api/events (see PageEvents). The
// lab adds its own API to the mux.
func (a *App[S]) Routes(site Site, data func(w http.ResponseWriter) any, pageEvents map[string]bool) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { site.Render(w, data(w)) })
	mux.HandleFunc("GET /labkit/lab.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, kit, "site/lab.js")
	})
	if site.assets {
		mux.Handle("GET /assets/", http.FileServerFS(site.files))
	}
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, http.StatusOK, a.State())
	})
	if len(pageEvents) > 0 {
		mux.HandleFunc("POST /api/events", a.PageEvents(pageEvents))
	}
	return mux
}
