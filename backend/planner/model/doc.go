// Package model is the model planner: a language model, called through its provider's
// official SDK, proposes one browser action at a time as a tool call, from the task's intent,
// the latest observation and what came of its earlier proposals. Each call becomes an
// agent.Proposal that the executor puts through the same harness and gate as a scripted plan;
// the model saying "done" only asks the gate to decide.
//
// Around the model it adds what a real run needs: errors classified into corrections (bad
// tool arguments, and targets that matched no element or several, go back to the model), retries (timeouts and server errors, with backoff and
// jitter; an API that never answers, through its retries, is dropped rather than waited for),
// rotation (rate limits, quota and refusals move to the next configured model) and
// waiting (when every model has refused); compaction of older turns under a token budget,
// keeping the intent word for word and first; a persistent mode that never finishes on its
// own; a time limit the model is told about; token and money budgets; and a record of every
// model turn (agent.ModelTurn).
//
// The tests reach no provider: they replay scripted transcripts from protocol-faithful fakes of
// both APIs served on 127.0.0.1 (package providertest), through the real SDK clients. Against
// a real provider, give a ModelConfig with its key's variable (ParseModel("openai:gpt-4.1-mini")
// reads OPENAI_API_KEY) or its OS keyring entry (APIKeyKeyring, which StoreKey fills); any
// OpenAI-compatible server works through BaseURL, such as Ollama's "http://127.0.0.1:11434/v1"
// with no key; a model without one goes to OPENAI_BASE_URL or ANTHROPIC_BASE_URL when set, as
// the SDKs do.
package model
