package model

import (
	"strings"
	"testing"
)

// TestParseModel checks the command line's provider:model form.
func TestParseModel(t *testing.T) {
	cases := []struct {
		spec    string
		want    ModelConfig
		wantErr string
	}{
		{"openai:gpt-4.1-mini", ModelConfig{Provider: ProviderOpenAI, Model: "gpt-4.1-mini", APIKeyEnv: "OPENAI_API_KEY"}, ""},
		{"anthropic:claude-sonnet-4-5", ModelConfig{Provider: ProviderAnthropic, Model: "claude-sonnet-4-5", APIKeyEnv: "ANTHROPIC_API_KEY"}, ""},
		{"openai:llama3.1:8b", ModelConfig{Provider: ProviderOpenAI, Model: "llama3.1:8b", APIKeyEnv: "OPENAI_API_KEY"}, ""},
		{"gpt-4.1-mini", ModelConfig{}, "want provider:model"},
		{"openai:", ModelConfig{}, "want provider:model"},
		{"gemini:pro", ModelConfig{}, `provider "gemini"`},
	}
	for _, c := range cases {
		got, err := ParseModel(c.spec)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want %q", c.spec, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.spec, got, err, c.want)
		}
	}
}

// TestNewRefuses checks that New names what is wrong with a configuration before any run.
func TestNewRefuses(t *testing.T) {
	t.Setenv("OBSERVATORY_TEST_UNSET_KEY", "")
	ok := ModelConfig{Provider: ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:11434/v1"}
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no model", Config{}, "no model configured"},
		{"unknown provider", Config{Models: []ModelConfig{{Provider: "gemini", Model: "pro"}}}, `models[0]: provider "gemini"`},
		{"no model name", Config{Models: []ModelConfig{ok, {Provider: ProviderAnthropic}}}, "models[1]: no model name"},
		{"negative price", Config{Models: []ModelConfig{{Provider: ProviderOpenAI, Model: "m", PriceInPerMTok: -1}}}, "negative"},
		{"negative budget", Config{Models: []ModelConfig{ok}, TokenBudget: -5}, "budgets"},
		{"missing key", Config{Models: []ModelConfig{{Provider: ProviderAnthropic, Model: "m", APIKeyEnv: "OBSERVATORY_TEST_UNSET_KEY"}}},
			"OBSERVATORY_TEST_UNSET_KEY holding its key is not set"},
	}
	for _, c := range cases {
		if _, err := New(taskOf("x"), c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := New(taskOf("x"), Config{Models: []ModelConfig{ok}}); err != nil {
		t.Errorf("a local server needs no key: %v", err)
	}
}
