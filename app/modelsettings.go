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
// an http(s) URL, and where its key is: a key variable that names a key's variable, never a
// key, or an OS keyring entry's plain name, not both. The variable must end in _API_KEY or
// _TOKEN, so that the settings cannot send any variable (a password, a cloud secret) to any
// server; prices are not negative.
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
	if m.APIKeyKeyring != "" {
		if m.APIKeyEnv != "" {
			return fmt.Errorf("model %s: its key comes from a keyring entry or a variable, not both", name)
		}
		if !model.ValidKeyringName(m.APIKeyKeyring) {
			return fmt.Errorf("model %s: keyring entry %q: want a short plain name (openai), never the key itself", name, m.APIKeyKeyring)
		}
	}
	if m.PriceInPerMTok < 0 || m.PriceOutPerMTok < 0 {
		return fmt.Errorf("model %s: prices cannot be negative", name)
	}
	return nil
}

// StoreKey puts key into the OS keyring as entry (service model.KeyringService), the name a
// model's keyring entry gives, so that runs read it from there; an empty key deletes the
// entry. The key goes nowhere else: not into settings.json, a run file, a log or the database.
func (s *Settings) StoreKey(entry, key string) error {
	return model.StoreKey(strings.TrimSpace(entry), strings.TrimSpace(key))
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
