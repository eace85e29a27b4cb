package outbox

import (
	"embed"
	"net/http"

	"observatory/backend/labs/internal/labkit"
)

// files are the app's only page and its script and style sheet.
//
//go:embed page.html assets
var files embed.FS

var site = labkit.NewSite(files)

// pageData is what the page template reads.
type pageData struct {
	// Rewrite is the address the page puts in the To field when the pointer reaches Send
	// (the recipient-changed fault); empty otherwise.
	Rewrite string
	// State is the server's state when the page was served, so that the page starts in step
	// with the event log.
	State State
}

// page is what the page shows for this instance's fault and current state.
func (in *Instance) page(http.ResponseWriter) any {
	data := pageData{State: in.State()}
	if in.Fault() == FaultRecipientChanged {
		data.Rewrite = WrongRecipient
	}
	return data
}
