package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/planner/model"
	"observatory/backend/planner/model/keyringtest"
	"observatory/backend/planner/model/providertest"
	"observatory/backend/taskfile"
)

// TestSettingsStoreAKeyInTheOSKeyring stores a key the way the settings panel does, in a
// real, private Secret Service, saves a model that names its entry, and tests the model: the
// key reaches the provider, and settings.json holds the entry's name, never the key. A model
// that names both an entry and a variable, or an entry that is no plain name, is refused; once
// the entry is deleted, testing the model says it is missing.
func TestSettingsStoreAKeyInTheOSKeyring(t *testing.T) {
	keyringtest.Start(t)
	const entry, key = "observatory-settings-test", "sk-settings-0123456789"
	fake := providertest.New(t, providertest.OpenAI, providertest.OpenAI.Call("c1", "done", "{}"))
	s := &Settings{path: filepath.Join(t.TempDir(), "settings.json")}
	if err := s.StoreKey(entry, key); err != nil {
		t.Fatal(err)
	}
	m := model.ModelConfig{Provider: model.ProviderOpenAI, BaseURL: fake.BaseURL(), Model: "tiny", APIKeyKeyring: entry}
	set := DefaultSettings()
	set.Models = []model.ModelConfig{m}
	if err := s.Save(set); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(s.path)
	if err != nil || strings.Contains(string(data), key) || !strings.Contains(string(data), `"api_key_keyring": "`+entry+`"`) {
		t.Errorf("settings.json (%v):\n%s\nwant the entry's name and no key", err, data)
	}
	if got, err := s.TestModel(m); err != nil || got.Reply != "done({})" {
		t.Fatalf("TestModel: %+v, %v", got, err)
	}
	if got := providertest.OpenAI.Key(fake.Headers(0)); got != key {
		t.Errorf("the provider got key %q, want the keyring's", got)
	}
	for _, bad := range []model.ModelConfig{
		{Provider: model.ProviderOpenAI, Model: "tiny", APIKeyKeyring: entry, APIKeyEnv: "OPENAI_API_KEY"},
		{Provider: model.ProviderOpenAI, Model: "tiny", APIKeyKeyring: "sk live 123"},
	} {
		set.Models = []model.ModelConfig{bad}
		if err := s.Save(set); err == nil {
			t.Errorf("Save accepted %+v", bad)
		}
	}
	if err := s.StoreKey(entry, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TestModel(m); err == nil || !strings.Contains(err.Error(), `holds no key "`+entry+`"`) {
		t.Errorf("TestModel after the key was deleted: %v, want the missing entry named", err)
	}
}

// TestTaskModelsCarryPricesAndKeys: a task file's models reach the planner with their
// prices and where their keys are.
func TestTaskModelsCarryPricesAndKeys(t *testing.T) {
	got := TaskModels([]taskfile.ModelSpec{{Provider: "anthropic", Model: "claude-sonnet-4-5", APIKeyKeyring: "anthropic", PriceInPerMTok: 3, PriceOutPerMTok: 15},
		{Provider: "openai", Model: "llama3.1", BaseURL: "http://127.0.0.1:11434/v1", APIKeyEnv: "LOCAL_API_KEY"}})
	want := []model.ModelConfig{{Provider: "anthropic", Model: "claude-sonnet-4-5", APIKeyKeyring: "anthropic", PriceInPerMTok: 3, PriceOutPerMTok: 15},
		{Provider: "openai", Model: "llama3.1", BaseURL: "http://127.0.0.1:11434/v1", APIKeyEnv: "LOCAL_API_KEY"}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("TaskModels = %+v, want %+v", got, want)
	}
}
