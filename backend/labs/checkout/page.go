package checkout

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

// page is what the page shows for this instance's fault and current state; it signs the
// browser in as the state's account.
func (in *Instance) page(w http.ResponseWriter) any {
	data := pageData{State: in.State(), Product: Product, PayLabel: PayLabel, Version: VersionA,
		Fault: faultData{Mode: in.Fault(), ChangedPrice: ChangedPrice, OtherAccount: OtherAccount}}
	if in.Fault() == FaultRenamedPay {
		data.PayLabel, data.Version = RenamedPayLabel, VersionB
	}
	http.SetCookie(w, &http.Cookie{Name: accountCookie, Value: data.State.Account, Path: "/", SameSite: http.SameSiteLaxMode})
	return data
}
