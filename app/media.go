package app

import (
	"net/http"
	"path/filepath"
	"strings"
)

// MediaPrefix is the URL path under which run media (videos, screenshots) are served.
const MediaPrefix = "/media/"

// MediaHandler serves files below root at /media/<run>/<file>. http.Dir refuses paths that
// climb out of root.
func MediaHandler(root string) http.Handler {
	files := http.StripPrefix(strings.TrimSuffix(MediaPrefix, "/"), http.FileServer(http.Dir(filepath.Clean(root))))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, MediaPrefix) || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "private, max-age=3600")
		files.ServeHTTP(w, r)
	})
}
