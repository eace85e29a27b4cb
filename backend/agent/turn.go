package agent

// ModelTurn is one exchange with a model planner, as recorded: what was sent (summarised),
// what came back, what it cost, and what recovery happened on the way. It holds no API key
// and no provider SDK type, so run files and the store can keep it as it is.
type ModelTurn struct {
	// Step is the index of the step this turn was planning.
	Step int `json:"step"`
	// Model is the model that answered, as "provider:model" ("openai:gpt-4.1-mini").
	Model string `json:"model"`
	// Messages and Tokens summarise the request: the messages sent and their estimated tokens.
	Messages int `json:"messages"`
	Tokens   int `json:"tokens"`
	// GroundedSeq and GroundedAtMS are the Seq and AtMS of the observation the request
	// showed the model.
	GroundedSeq  int   `json:"grounded_seq,omitempty"`
	GroundedAtMS int64 `json:"grounded_at_ms"`
	// Text is what the model wrote besides its tool calls.
	Text  string      `json:"text,omitempty"`
	Calls []ModelCall `json:"calls,omitempty"`
	// InTokens and OutTokens are the usage the provider reported.
	InTokens  int64 `json:"in_tokens"`
	OutTokens int64 `json:"out_tokens"`
	LatencyMS int64 `json:"latency_ms"`
	// CostUSD is the turn's cost at the configured prices; 0 when none are configured.
	CostUSD float64 `json:"cost_usd"`
	// Retries counts requests retried (timeouts, server errors) before this answer.
	Retries int `json:"retries,omitempty"`
	// Notes say what else happened: rotation to another model, waiting, a refused done, a pause.
	Notes      []string    `json:"notes,omitempty"`
	Compaction *Compaction `json:"compaction,omitempty"`
	// Error says why planning ended at this turn without an answer (time limit, budget).
	Error string `json:"error,omitempty"`
}

// ModelCall is one tool call a model made and what the planner did with it.
type ModelCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments are the call's arguments as the model sent them (JSON text, possibly invalid).
	Arguments string `json:"arguments"`
	// Outcome is "proposed" (it became the step's action), "answered" (a planner-side tool
	// such as read_page_text), "rejected" (sent back to the model as an error) or "refused".
	Outcome string `json:"outcome"`
	// Result is what went back to the model for a call answered, rejected or refused here.
	Result string `json:"result,omitempty"`
}

// Compaction records older turns summarised to keep the conversation under its token budget.
type Compaction struct {
	// Messages is how many messages the summary replaced.
	Messages     int    `json:"messages"`
	Summary      string `json:"summary"`
	TokensBefore int    `json:"tokens_before"`
	TokensAfter  int    `json:"tokens_after"`
}

// AllModelTurns returns every model turn of the attempt in order: each step's, then those that
// led to no step.
func (a Attempt) AllModelTurns() []ModelTurn {
	var out []ModelTurn
	for _, s := range a.Steps {
		out = append(out, s.ModelTurns...)
	}
	return append(out, a.ModelTurns...)
}
