package oracle

import (
	"context"
	"encoding/json"
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/jsonstrict"
)

// Kinds of condition, as agent.Answer.Kind names them.
const (
	KindPage = "page"
	KindHTTP = "http"
	KindSQL  = "sql"
)

// Check is one kind of question about authoritative state: it asks (reads the state now) and
// judges (decides from a raw answer alone).
type Check interface {
	// Kind is KindPage, KindHTTP or KindSQL.
	Kind() string
	// Judge decides the verdict from a raw answer as ask returned it (or as a run file
	// recorded it); the same function serves live checks and imports.
	Judge(raw json.RawMessage) agent.Verdict
	// ask reads the state now. An error means the state could not be read at all.
	ask(ctx context.Context, rd *round) (json.RawMessage, error)
}

// Condition is one named check.
type Condition struct {
	ID    string
	Label string
	Check Check
}

// Judge decides c from its recorded answer: "could not confirm" when there is none, when it
// records why the state could not be read, or when it is an answer of another kind.
func Judge(c Condition, a *agent.Answer) agent.Verdict {
	switch {
	case a == nil:
		return agent.Unconfirmed("no answer was recorded")
	case a.Kind != c.Check.Kind():
		return agent.Unconfirmed(fmt.Sprintf("the recorded answer is of kind %q, want %q", a.Kind, c.Check.Kind()))
	case a.Error != "":
		return agent.Unconfirmed(a.Error)
	}
	return c.Check.Judge(a.Raw)
}

// FieldError says which field of a condition is wrong, relative to the condition's kind
// ("expr", "url"), so a task file can report the whole path.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// unmarshalAnswer decodes a raw answer into dst, or says why it cannot be judged.
func unmarshalAnswer(raw json.RawMessage, dst any) error {
	if err := jsonstrict.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("the recorded answer is not the expected JSON: %v", err)
	}
	return nil
}
