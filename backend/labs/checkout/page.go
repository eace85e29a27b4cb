package checkout

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

// Page versions: the A/B flag's variant B renames Pay.
const (
	VersionA = "checkout-a"
	VersionB = "checkout-b"
)

// pageData is what the page template reads.
type pageData struct {
	State   State
	Product struct{ ID, Name string }
	// PayLabel and Version are the A/B flag's; Fault tells the page's script which fault to
	// play, with the price and account it plays it with.
	PayLabel, Version string
	Fault             faultData
}

// faultData is the fault as the page's script plays it.
type faultData struct {
	Mode         string `json:"mode"`
	ChangedPrice string `json:"changed_price"`
	OtherAccount string `json:"other_account"`
}

// handlePage renders the page for this instance's fault and current state, and signs the
// browser in as the state's account.
func (in *Instance) handlePage(w http.ResponseWriter, r *http.Request) {
	data := pageData{State: in.State(), Product: Product, PayLabel: PayLabel, Version: VersionA,
		Fault: faultData{Mode: in.fault, ChangedPrice: ChangedPrice, OtherAccount: OtherAccount}}
	if in.fault == FaultRenamedPay {
		data.PayLabel, data.Version = RenamedPayLabel, VersionB
	}
	var buf bytes.Buffer
	if err := page.Execute(&buf, data); err != nil {
		http.Error(w, "render the checkout page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: accountCookie, Value: data.State.Account, Path: "/", SameSite: http.SameSiteLaxMode})
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes()) // a write error means the client left
}
