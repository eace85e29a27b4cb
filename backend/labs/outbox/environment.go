package outbox

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// maxAnswer bounds the look-up answer a reconciliation records.
const maxAnswer = 2 << 10

// environment is one instance of the app as an attempt of the lab's own task runs against
// it. It reconciles an ambiguous send by asking the app's store about its operation id.
type environment struct{ labkit.Environment }

var _ agent.Reconciler = environment{}

// newEnvironment is the plain environment of an instance, reconciling.
func newEnvironment(_ *Instance, plain labkit.Environment) agent.Environment {
	return environment{plain}
}

// Reconcile reads the latest send's operation id from the page's Operation id field and asks
// the store, through its JSON endpoint, how many messages it holds for it. The retry it
// offers is the page's Retry, which sends the same operation id again.
func (e environment) Reconcile(ctx context.Context, s agent.Sample) (agent.Reconciliation, error) {
	op := ""
	for _, f := range s.Fields {
		if f.Name == OpLabel {
			op = f.Value
		}
	}
	if op == "" {
		return agent.Reconciliation{}, fmt.Errorf("the page shows no %s to look up", OpLabel)
	}
	query := "/api/messages?op_id=" + url.QueryEscape(op)
	rec := agent.Reconciliation{OpID: op, Query: "GET " + query,
		Retry: &agent.Action{ID: "retry", Description: "Retry the same send", Kind: agent.ActClick,
			Target: agent.Target{Role: "button", Name: RetryLabel}}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.URL()+query[1:], nil)
	if err != nil {
		return rec, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return rec, fmt.Errorf("ask the store: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return rec, fmt.Errorf("read the store's answer: %w", err)
	}
	rec.Answer = string(body)
	var ans lookUpAnswer
	if res.StatusCode != http.StatusOK {
		return rec, fmt.Errorf("the store answered HTTP %d: %s", res.StatusCode, body)
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		return rec, fmt.Errorf("the store's answer is not the expected JSON: %w", err)
	}
	rec.Found = ans.Found
	return rec, nil
}
