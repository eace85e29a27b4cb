package checkout

// Fault modes an instance can be started with (agent.AttemptSpec.Fault).
const (
	// FaultNone sells normally.
	FaultNone = "none"
	// FaultPriceChanged re-quotes the product at ChangedPrice the moment the pointer reaches
	// Pay: the price changes between observing and paying.
	FaultPriceChanged = "price-changed"
	// FaultAccountSwitched signs the shop in as OtherAccount in another tab as the product is
	// added to the cart; this page follows, as pages sharing a cookie do.
	FaultAccountSwitched = "account-switched"
	// FaultBanner shows a promotion banner above the product, with a ticking countdown, the
	// moment the pointer reaches Pay: the layout shifts, nothing that matters changes.
	FaultBanner = "banner"
	// FaultRenamedPay is the A/B flag that labels Pay "Complete purchase" (and the page's
	// version checkout-b).
	FaultRenamedPay = "renamed-pay"
)

// Faults lists every fault mode.
var Faults = []string{FaultNone, FaultPriceChanged, FaultAccountSwitched, FaultBanner, FaultRenamedPay}
