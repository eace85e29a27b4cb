package outbox

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
)

//go:embed page.html
var pageHTML string

//go:embed assets
var assetFiles embed.FS

// assets serves the page's script and style sheet under /assets/.
var assets fs.FS = assetFiles

// page renders the app's only page.
var page = template.Must(template.New("page").Parse(pageHTML))

// pageData is what the page template reads.
type pageData struct {
	// Rewrite is the address the page puts in the To field when the pointer reaches Send
	// (the recipient-changed fault); empty otherwise.
	Rewrite string
	// State is the server's state when the page was served, so that the page starts in step
	// with the event log.
	State State
}

// handlePage renders the page for this instance's fault and current state.
func (in *Instance) handlePage(w http.ResponseWriter, r *http.Request) {
	data := pageData{State: in.State()}
	if in.fault == FaultRecipientChanged {
		data.Rewrite = WrongRecipient
	}
	var buf bytes.Buffer
	if err := page.Execute(&buf, data); err != nil {
		http.Error(w, "render the outbox page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes()) // a write error means the client left
}
