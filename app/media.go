package app

import (
	"net/http"
	"path/filepath"
	"strings"
)

// MediaPrefix is the URL path under which run media (videos, screenshots, DOM snapshots) are
// served.
const MediaPrefix = "/media/"

// MediaHandler serves files below root at /media/<run>/<file>. http.Dir refuses paths that
// climb out of root. Media may come from a stranger's bundle, so nothing served here may run:
// the type is never sniffed, and a document opened directly is sandboxed (no scripts, no
// same-origin access); images and video still play where the UI embeds them.
func MediaHandler(root string) http.Handler {
	files := http.StripPrefix(strings.TrimSuffix(MediaPrefix, "/"), http.FileServer(http.Dir(filepath.Clean(root))))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, MediaPrefix) || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "private, max-age=3600")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", "sandbox; default-src 'none'")
		if strings.HasSuffix(r.URL.Path, ".txt") { // a DOM snapshot: its markup is text, whatever the system's MIME table says
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		}
		files.ServeHTTP(w, r)
	})
}
