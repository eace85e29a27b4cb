package booking

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
	// ReserveLabel is the text of the button that opens the dialog (renamed by a fault).
	ReserveLabel string
	Rooms        []Room
	DefaultRoom  string
	// State is the server's state when the page was served, so that the page starts in step
	// with the event log (it renders the records and notice from it).
	State State
}

// page is what the page shows for this instance's fault and current state.
func (in *Instance) page(http.ResponseWriter) any {
	label := ReserveLabel
	if in.Fault() == FaultRenamed {
		label = RenamedLabel
	}
	return pageData{ReserveLabel: label, Rooms: Rooms, DefaultRoom: DefaultRoom, State: in.State()}
}
