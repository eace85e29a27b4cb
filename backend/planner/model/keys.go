package model

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/zalando/go-keyring"
)

// KeyringService is the service the OS keyring (the Secret Service on Linux, the Keychain on
// macOS, the Credential Manager on Windows) holds model keys under: ModelConfig.APIKeyKeyring
// names the entry.
const KeyringService = "observatory"

// keyringTimeout bounds one keyring call: a locked keyring may ask its user to unlock it, and
// a keyring that never answers must not stall a run.
const keyringTimeout = 30 * time.Second

// keyringName is an entry name a ModelConfig may give: a short, plain name ("openai").
var keyringName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidKeyringName reports whether name may name a key's keyring entry.
func ValidKeyringName(name string) bool { return keyringName.MatchString(name) }

// apiKey reads m's key: from the keyring entry it names, else from its environment variable;
// "" when it names neither, as local servers expect.
func apiKey(m ModelConfig) (string, error) {
	switch {
	case m.APIKeyKeyring != "":
		key, err := keyringCall(func() (string, error) { return keyring.Get(KeyringService, m.APIKeyKeyring) })
		switch {
		case errors.Is(err, keyring.ErrNotFound) || (err == nil && key == ""):
			return "", fmt.Errorf("model %s: the OS keyring holds no key %q (service %s): store it in Settings → Models", m.Name(), m.APIKeyKeyring, KeyringService)
		case err != nil:
			return "", fmt.Errorf("model %s: reading its key %q from the OS keyring: %w", m.Name(), m.APIKeyKeyring, err)
		}
		return key, nil
	case m.APIKeyEnv != "":
		key := os.Getenv(m.APIKeyEnv)
		if key == "" {
			return "", fmt.Errorf("model %s: the environment variable %s holding its key is not set", m.Name(), m.APIKeyEnv)
		}
		return key, nil
	}
	return "", nil
}

// StoreKey puts key into the OS keyring as entry name, for models whose APIKeyKeyring names
// it; an empty key deletes the entry. The key goes nowhere else.
func StoreKey(name, key string) error {
	if !ValidKeyringName(name) {
		return fmt.Errorf("keyring entry %q: want a short plain name, such as openai", name)
	}
	_, err := keyringCall(func() (string, error) {
		if key == "" {
			if err := keyring.Delete(KeyringService, name); !errors.Is(err, keyring.ErrNotFound) {
				return "", err
			}
			return "", nil
		}
		return "", keyring.Set(KeyringService, name, key)
	})
	if err != nil {
		return fmt.Errorf("storing the key %q in the OS keyring: %w", name, err)
	}
	return nil
}

// ReadKey reads the keyring entry name that StoreKey wrote; keyring.ErrNotFound (wrapped)
// when there is none.
func ReadKey(name string) (string, error) {
	if !ValidKeyringName(name) {
		return "", fmt.Errorf("keyring entry %q: want a short plain name, such as openai", name)
	}
	key, err := keyringCall(func() (string, error) { return keyring.Get(KeyringService, name) })
	if err != nil {
		return "", fmt.Errorf("reading %q from the OS keyring: %w", name, err)
	}
	return key, nil
}

// keyringCall runs one keyring call within keyringTimeout. A call that never returns is left
// behind: the keyring library offers no way to cancel one.
func keyringCall(call func() (string, error)) (string, error) {
	type result struct {
		v   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := call()
		done <- result{v, err}
	}()
	t := time.NewTimer(keyringTimeout)
	defer t.Stop()
	select {
	case r := <-done:
		return r.v, r.err
	case <-t.C:
		return "", fmt.Errorf("the OS keyring did not answer within %s (is it locked, or no keyring service running?)", keyringTimeout)
	}
}
