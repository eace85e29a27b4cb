package model

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Providers a ModelConfig may name.
const (
	// ProviderOpenAI speaks OpenAI chat completions: OpenAI itself and every compatible
	// server (Ollama, vLLM, LM Studio, OpenRouter, Azure's OpenAI-compatible endpoint).
	ProviderOpenAI = "openai"
	// ProviderAnthropic speaks Anthropic messages.
	ProviderAnthropic = "anthropic"
)

// ModelConfig is one model the planner may call. The key is read from the OS keyring entry
// APIKeyKeyring, or else the environment variable APIKeyEnv, when the planner is made; it is
// never recorded.
type ModelConfig struct {
	Provider string `json:"provider"`
	// BaseURL is the API's base URL; empty means the provider's own
	// ("http://127.0.0.1:11434/v1" for Ollama).
	BaseURL string `json:"base_url,omitempty"`
	Model   string `json:"model"`
	// APIKeyEnv names the environment variable holding the key; empty sends none, as local
	// servers expect.
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// APIKeyKeyring names the OS keyring entry (service KeyringService) holding the key, in
	// place of APIKeyEnv; StoreKey puts a key there.
	APIKeyKeyring string `json:"api_key_keyring,omitempty"`
	// PriceInPerMTok and PriceOutPerMTok are US dollars per million input and output tokens.
	PriceInPerMTok  float64 `json:"price_in_per_mtok,omitempty"`
	PriceOutPerMTok float64 `json:"price_out_per_mtok,omitempty"`
}

// baseURLEnv names the variable each provider's official SDK reads its base URL from.
var baseURLEnv = map[string]string{ProviderOpenAI: "OPENAI_BASE_URL", ProviderAnthropic: "ANTHROPIC_BASE_URL"}

// defaultBaseURL is where each provider's official SDK sends requests by default.
var defaultBaseURL = map[string]string{ProviderOpenAI: "https://api.openai.com/v1", ProviderAnthropic: "https://api.anthropic.com"}

// withEnvBaseURL is m with its base URL resolved as the official SDKs resolve it: BaseURL when
// set, else the provider's variable (OPENAI_BASE_URL, ANTHROPIC_BASE_URL), else the
// provider's own address. Only the base URL is read from there: the key still comes from
// APIKeyEnv or APIKeyKeyring alone.
func (m ModelConfig) withEnvBaseURL() (ModelConfig, error) {
	if m.BaseURL != "" {
		return m, nil
	}
	name := baseURLEnv[m.Provider]
	v := os.Getenv(name)
	if v == "" {
		m.BaseURL = defaultBaseURL[m.Provider]
		return m, nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return m, fmt.Errorf("model %s: %s=%q: want an http:// or https:// URL", m.Name(), name, v)
	}
	m.BaseURL = v
	return m, nil
}

// Name is "provider:model", as turns record it.
func (m ModelConfig) Name() string { return m.Provider + ":" + m.Model }

// cost is what inTok input and outTok output tokens cost at m's prices, in US dollars.
func (m ModelConfig) cost(inTok, outTok int64) float64 {
	return (float64(inTok)*m.PriceInPerMTok + float64(outTok)*m.PriceOutPerMTok) / 1e6
}

// ParseModel reads the command line's "provider:model" ("openai:gpt-4.1-mini") into a
// ModelConfig with the provider's usual key variable (OPENAI_API_KEY, ANTHROPIC_API_KEY).
func ParseModel(spec string) (ModelConfig, error) {
	provider, name, ok := strings.Cut(spec, ":")
	if !ok || name == "" {
		return ModelConfig{}, fmt.Errorf("model %q: want provider:model, such as openai:gpt-4.1-mini", spec)
	}
	m := ModelConfig{Provider: provider, Model: name}
	switch provider {
	case ProviderOpenAI:
		m.APIKeyEnv = "OPENAI_API_KEY"
	case ProviderAnthropic:
		m.APIKeyEnv = "ANTHROPIC_API_KEY"
	default:
		return ModelConfig{}, fmt.Errorf("model %q: provider %q: want %q or %q", spec, provider, ProviderOpenAI, ProviderAnthropic)
	}
	return m, nil
}

// Config is how the planner plans: its models in order of preference and its limits, as
// settings and task files give them (durations in milliseconds, as everywhere else), plus the
// recovery bounds, which only code sets. Zero numbers take DefaultConfig's.
type Config struct {
	// Models are tried in order; rate limits, quota and refusals rotate to the next.
	Models []ModelConfig `json:"models"`
	// Persistent refuses done and treats a reply without a tool call as a pause: planning
	// goes on until the time limit, a budget or the context ends it.
	Persistent bool `json:"persistent,omitempty"`
	// Vision shows the model the observation's screenshot, read from MediaDir, the folder
	// the sample's screenshot path is relative to.
	Vision   bool   `json:"vision,omitempty"`
	MediaDir string `json:"-"`
	// TimeLimitMS bounds planning from the first proposal; the model is told the time left.
	TimeLimitMS int `json:"time_limit_ms,omitempty"`
	// TokenBudget bounds the tokens spent (input and output, every model); 0 for none.
	TokenBudget int64 `json:"token_budget,omitempty"`
	// MoneyBudget bounds the money spent at the configured prices, in US dollars; 0 for none.
	MoneyBudget float64 `json:"money_budget_usd,omitempty"`
	// ContextTokens is the estimated conversation size past which older turns are summarised.
	ContextTokens int `json:"context_tokens,omitempty"`
	// MaxOutputTokens bounds each reply.
	MaxOutputTokens int      `json:"max_output_tokens,omitempty"`
	Recovery        Recovery `json:"-"`
}

// Recovery bounds what the planner does about errors and silence.
type Recovery struct {
	// RequestTimeout bounds one request to a model.
	RequestTimeout time.Duration
	// Retries is how often a timed-out or failed (5xx) request is retried on the same model.
	Retries int
	// Corrections is how many invalid tool calls in a row go back to the model before
	// planning gives up.
	Corrections int
	// LocalCalls bounds planner-side tool calls (read_page_text) per step.
	LocalCalls int
	// Backoff is the first retry's delay, doubled each retry up to MaxBackoff, with jitter.
	Backoff, MaxBackoff time.Duration
	// Wait is the first wait when every model has refused, doubled up to MaxWait; a
	// provider's Retry-After, when longer, is honoured up to MaxWait.
	Wait, MaxWait time.Duration
	// Pause is how long a persistent planner waits after a reply without a tool call (or a
	// refused done) before asking again.
	Pause time.Duration
}

// DefaultConfig has no models and these bounds: a 10 minute time limit, no token or money
// budget, compaction past 24,000 estimated tokens, 1,024 output tokens per reply, 60 s per
// request, 3 retries from 500 ms backoff (at most 8 s), 3 corrections in a row, 4
// read_page_text calls per step, waits of 5 s doubling to 60 s when every model has
// refused, and a 5 s pause in persistent mode.
func DefaultConfig() Config {
	return Config{TimeLimitMS: 600_000, ContextTokens: 24000, MaxOutputTokens: 1024,
		Recovery: Recovery{RequestTimeout: 60 * time.Second, Retries: 3, Corrections: 3, LocalCalls: 4,
			Backoff: 500 * time.Millisecond, MaxBackoff: 8 * time.Second,
			Wait: 5 * time.Second, MaxWait: 60 * time.Second, Pause: 5 * time.Second}}
}

// withDefaults fills c's zero numbers from DefaultConfig.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	dur := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	num := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	num(&c.TimeLimitMS, d.TimeLimitMS)
	num(&c.ContextTokens, d.ContextTokens)
	num(&c.MaxOutputTokens, d.MaxOutputTokens)
	r, dr := &c.Recovery, d.Recovery
	dur(&r.RequestTimeout, dr.RequestTimeout)
	dur(&r.Backoff, dr.Backoff)
	dur(&r.MaxBackoff, dr.MaxBackoff)
	dur(&r.Wait, dr.Wait)
	dur(&r.MaxWait, dr.MaxWait)
	dur(&r.Pause, dr.Pause)
	num(&r.Retries, dr.Retries)
	num(&r.Corrections, dr.Corrections)
	num(&r.LocalCalls, dr.LocalCalls)
	return c
}

// timeLimit is the time limit as a duration.
func (c Config) timeLimit() time.Duration { return time.Duration(c.TimeLimitMS) * time.Millisecond }

// Validate says what is wrong with c, naming the model or field, or returns nil.
func (c Config) Validate() error {
	if len(c.Models) == 0 {
		return fmt.Errorf("no model configured: give at least one {provider, model}")
	}
	for i, m := range c.Models {
		switch {
		case m.Provider != ProviderOpenAI && m.Provider != ProviderAnthropic:
			return fmt.Errorf("models[%d]: provider %q: want %q or %q", i, m.Provider, ProviderOpenAI, ProviderAnthropic)
		case m.Model == "":
			return fmt.Errorf("models[%d]: no model name", i)
		case m.PriceInPerMTok < 0 || m.PriceOutPerMTok < 0:
			return fmt.Errorf("models[%d]: prices must not be negative", i)
		case m.APIKeyKeyring != "" && m.APIKeyEnv != "":
			return fmt.Errorf("models[%d]: give the key's keyring entry or its environment variable, not both", i)
		case m.APIKeyKeyring != "" && !ValidKeyringName(m.APIKeyKeyring):
			return fmt.Errorf("models[%d]: keyring entry %q: want a short plain name, such as openai", i, m.APIKeyKeyring)
		}
	}
	switch {
	case c.TokenBudget < 0 || c.MoneyBudget < 0:
		return fmt.Errorf("budgets must not be negative")
	case c.TimeLimitMS < 0:
		return fmt.Errorf("time limit %d ms must not be negative", c.TimeLimitMS)
	}
	return nil
}
