package cli

import (
	"fmt"
	"io"
	"strings"

	"observatory/app"
	"observatory/backend/store"
)

// prune applies the retention setting of the data folder's settings through the services, and
// says on w what it deleted.
func prune(w io.Writer, s *app.Services) error {
	deleted, err := s.History.Prune()
	if len(deleted) > 0 {
		fmt.Fprintf(w, "retention: deleted %d run(s) past the retention setting: %s\n", len(deleted), safe(strings.Join(deleted, ", ")))
	}
	return err
}

// pruneAtStart applies retention as the desktop or `serve` opens; a failure is said on w and
// does not stop it.
func pruneAtStart(w io.Writer, s *app.Services) {
	if err := prune(w, s); err != nil {
		fmt.Fprintln(w, err)
	}
}

// pruneStore is `runs --prune`: retention applied to the store, before the history is listed.
func pruneStore(w io.Writer, st *store.Store, dataDir string) error {
	return prune(w, app.New(app.Options{Store: st, DataDir: dataDir, Transport: "cli"}))
}
