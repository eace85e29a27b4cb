package model

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"observatory/backend/planner/model/keyringtest"
)

// TestKeyFromTheKeyring stores a key in a real, private Secret Service, makes a planner whose
// model names the entry, and checks that the key reaches the provider in its header and
// nowhere in the planner's record; an entry that holds nothing is refused by name, and
// storing an empty key deletes the entry.
func TestKeyFromTheKeyring(t *testing.T) {
	keyringtest.Start(t)
	const key = "sk-keyring-0123456789"
	if err := StoreKey("test-openai", key); err != nil {
		t.Fatal(err)
	}
	f := newScripted(t, openaiAPI, click(openaiAPI, "c1"))
	m := f.model("model-1", "")
	m.APIKeyKeyring = "test-openai"
	p, err := New(taskOf(bookingIntent), Config{Models: []ModelConfig{m}})
	if err != nil {
		t.Fatal(err)
	}
	prop, err := p.Next(context.Background(), page(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := openaiAPI.key(f.headers(0)); got != key {
		t.Errorf("the provider got key %q, want the keyring's", got)
	}
	if b, _ := json.Marshal(prop); strings.Contains(string(b), key) {
		t.Error("the proposal's record shows the key")
	}
	if err := StoreKey("test-openai", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := New(taskOf(bookingIntent), Config{Models: []ModelConfig{m}}); err == nil || !strings.Contains(err.Error(), `no key "test-openai"`) {
		t.Errorf("a deleted entry: %v, want it named as missing", err)
	}
	if err := StoreKey("../evil", key); err == nil {
		t.Error("an entry name with a path was accepted")
	}
}
