package app

import "observatory/backend/store"

// Analysis reads across stored runs: the outcome metrics, an attempt's action ledger, and
// two runs compared side by side or as an A/B test.
type Analysis struct {
	store *store.Store
}
