package app

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"observatory/backend/planner/model"
)

// keyEnvName is a plain, uppercase environment variable name.
var keyEnvName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// CheckModel checks one model of the settings: a known provider, a model, a base URL that is
// an http(s) URL, and a key variable that names a key's variable, never a key. The variable
// must end in _API_KEY or _TOKEN, so that the settings cannot send any variable (a password,
// a cloud secret) to any server.
func CheckModel(m model.ModelConfig) error {
	name := m.Provider + ":" + m.Model
	switch m.Provider {
	case model.ProviderOpenAI, model.ProviderAnthropic:
	default:
		return fmt.Errorf("model %s: provider %q: want openai or anthropic", name, m.Provider)
	}
	if strings.TrimSpace(m.Model) == "" {
		return fmt.Errorf("model of provider %s: name the model (gpt-4.1-mini, claude-sonnet-4-5)", m.Provider)
	}
	if m.BaseURL != "" {
		u, err := url.Parse(m.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			return fmt.Errorf("model %s: base URL %q: want an http:// or https:// URL (Ollama: http://127.0.0.1:11434/v1)", name, m.BaseURL)
		}
	}
	if m.APIKeyEnv != "" {
		if !keyEnvName.MatchString(m.APIKeyEnv) {
			return fmt.Errorf("model %s: the key variable must be an environment variable's name in capitals (OPENAI_API_KEY), never the key itself", name)
		}
		if !strings.HasSuffix(m.APIKeyEnv, "_API_KEY") && !strings.HasSuffix(m.APIKeyEnv, "_TOKEN") {
			return fmt.Errorf("model %s: key variable %s: only a variable ending in _API_KEY or _TOKEN may be sent to a model's server", name, m.APIKeyEnv)
		}
	}
	if m.PriceInPerMTok < 0 || m.PriceOutPerMTok < 0 {
		return fmt.Errorf("model %s: prices cannot be negative", name)
	}
	return nil
}

// checkModels checks the settings' models and planner choice.
func checkModels(u UserSettings) error {
	switch u.Planner {
	case "", PlannerScript, PlannerModel:
	default:
		return fmt.Errorf("planner %q: want script or model", u.Planner)
	}
	for _, m := range u.Models {
		if err := CheckModel(m); err != nil {
			return err
		}
	}
	return nil
}

// Who plans the runs started from the window.
const (
	PlannerScript = "script"
	PlannerModel  = "model"
)
