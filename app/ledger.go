package app

import (
	"observatory/backend/agent"
	"observatory/backend/ledger"
	"observatory/backend/store"
)

// attemptOf reads attempt slug of stored run id, whole.
func attemptOf(st *store.Store, id, slug string) (agent.Attempt, error) {
	run, err := st.Attempt(id, slug)
	if err != nil {
		return agent.Attempt{}, err
	}
	return run.Attempts[0], nil
}

// Ledger is the action ledger of attempt slug of run id, one entry per step (see
// backend/ledger).
func (an *Analysis) Ledger(id, slug string) ([]ledger.Entry, error) {
	a, err := attemptOf(an.store, id, slug)
	if err != nil {
		return nil, err
	}
	return ledger.Of(a), nil
}
