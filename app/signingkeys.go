package app

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"observatory/backend/jsonstrict"
	"observatory/backend/planner/model"
	"observatory/backend/signing"
)

// Where a signing key's private half is kept (SigningKey.Private).
const (
	// InKeyring: the OS keyring, as model keys are (service model.KeyringService).
	InKeyring = "keyring"
	// InFile: a file only its owner reads (0600) in the data folder's keys folder, where
	// there is no OS keyring.
	InFile = "file"
)

// SigningKey is one of this data folder's own signing keys, as listed: never its private half.
type SigningKey struct {
	Name        string            `json:"name"`
	PublicKey   ed25519.PublicKey `json:"public_key"`
	Fingerprint string            `json:"fingerprint"`
	// Private is where the private half is: InKeyring or InFile; Entry is its keyring
	// entry's or its file's name.
	Private string `json:"private"`
	Entry   string `json:"entry"`
}

// SigningKeys are a data folder's signing keys and the public keys it trusts, in
// <data>/keys: own.json and trusted.json list them; a private half kept in a file is
// <entry>.key there. Nothing else ever holds a private key: not a run file, a bundle, a log
// or the store.
type SigningKeys struct {
	dir string
}

// SigningKeysIn are the keys of the data folder dataDir.
func SigningKeysIn(dataDir string) *SigningKeys {
	return &SigningKeys{dir: filepath.Join(dataDir, "keys")}
}

// keyName is a name a key may have: short and plain, as a keyring entry's.
var keyName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._ @-]{0,63}$`)

// New makes an Ed25519 key pair called name, keeps its private half in the OS keyring
// (else, when there is none, in a 0600 file, and keyringErr says why), and trusts its
// public half.
func (k *SigningKeys) New(name string) (key SigningKey, keyringErr error, err error) {
	if !keyName.MatchString(name) {
		return key, nil, fmt.Errorf("key name %q: want up to 64 letters, digits, spaces, '.', '_', '@' or '-'", name)
	}
	own, err := k.Own()
	if err != nil {
		return key, nil, err
	}
	if slices.ContainsFunc(own, func(o SigningKey) bool { return o.Name == name }) {
		return key, nil, fmt.Errorf("there is a key called %q already; choose another name", name)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return key, nil, err
	}
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return key, nil, err
	}
	id := signing.KeyID(pub)
	key = SigningKey{Name: name, PublicKey: pub, Fingerprint: signing.Fingerprint(pub), Private: InKeyring, Entry: "signing-" + id[:16]}
	seed := base64.StdEncoding.EncodeToString(priv.Seed())
	if keyringErr = model.StoreKey(key.Entry, seed); keyringErr != nil {
		key.Private = InFile
		if err := writePrivate(filepath.Join(k.dir, key.Entry+".key"), seed); err != nil {
			return key, keyringErr, err
		}
	}
	if err := writeKeysFile(filepath.Join(k.dir, "own.json"), append(own, key)); err != nil {
		return key, keyringErr, err
	}
	return key, keyringErr, k.Trust(name, pub)
}

// writePrivate writes a private key's seed to a new file only its owner reads.
func writePrivate(path, seed string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(seed + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Own lists this data folder's own keys, oldest first.
func (k *SigningKeys) Own() ([]SigningKey, error) {
	var own []SigningKey
	return own, readKeysFile(filepath.Join(k.dir, "own.json"), &own)
}

// Find is the own key called name; with name empty, the only key there is.
func (k *SigningKeys) Find(name string) (SigningKey, error) {
	own, err := k.Own()
	if err != nil {
		return SigningKey{}, err
	}
	if name == "" {
		switch len(own) {
		case 0:
			return SigningKey{}, errors.New("there is no signing key: make one with `observatory keys new --name NAME`")
		case 1:
			return own[0], nil
		}
		return SigningKey{}, errors.New("there are several signing keys: name one with --key NAME (see `observatory keys list`)")
	}
	for _, o := range own {
		if o.Name == name {
			return o, nil
		}
	}
	return SigningKey{}, fmt.Errorf("there is no signing key %q (see `observatory keys list`)", name)
}

// Signer loads the private half of the own key called name (see Find).
func (k *SigningKeys) Signer(name string) (signing.Signer, error) {
	key, err := k.Find(name)
	if err != nil {
		return signing.Signer{}, err
	}
	var seed string
	switch key.Private {
	case InKeyring:
		seed, err = model.ReadKey(key.Entry)
	case InFile:
		var b []byte
		b, err = os.ReadFile(filepath.Join(k.dir, key.Entry+".key"))
		seed = string(b)
	default:
		err = fmt.Errorf("it is kept in %q, which this build does not know", key.Private)
	}
	if err != nil {
		return signing.Signer{}, fmt.Errorf("the private key of %q: %w", key.Name, err)
	}
	raw, err := base64.StdEncoding.DecodeString(trimNewline(seed))
	if err != nil || len(raw) != ed25519.SeedSize {
		return signing.Signer{}, fmt.Errorf("the private key of %q is damaged", key.Name)
	}
	priv := ed25519.NewKeyFromSeed(raw)
	if !priv.Public().(ed25519.PublicKey).Equal(key.PublicKey) {
		return signing.Signer{}, fmt.Errorf("the private key of %q does not belong to its public key", key.Name)
	}
	return signing.Signer{Name: key.Name, Key: priv}, nil
}

func trimNewline(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// Trusted is the trust list: the public keys whose signatures verify here.
func (k *SigningKeys) Trusted() (signing.Trust, error) {
	var t signing.Trust
	return t, readKeysFile(filepath.Join(k.dir, "trusted.json"), &t)
}

// Trust adds pub to the trust list as name; a key trusted already is renamed.
func (k *SigningKeys) Trust(name string, pub ed25519.PublicKey) error {
	if !keyName.MatchString(name) {
		return fmt.Errorf("key name %q: want up to 64 letters, digits, spaces, '.', '_', '@' or '-'", name)
	}
	t, err := k.Trusted()
	if err != nil {
		return err
	}
	t = slices.DeleteFunc(t, func(p signing.PublicKey) bool { return p.Key.Equal(pub) })
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return err
	}
	return writeKeysFile(filepath.Join(k.dir, "trusted.json"), append(t, signing.PublicKey{Name: name, Key: pub}))
}

// Untrust removes from the trust list the key called which, or whose fingerprint or key id
// is which; it says which key it removed.
func (k *SigningKeys) Untrust(which string) (signing.PublicKey, error) {
	t, err := k.Trusted()
	if err != nil {
		return signing.PublicKey{}, err
	}
	i := slices.IndexFunc(t, func(p signing.PublicKey) bool {
		return p.Name == which || signing.Fingerprint(p.Key) == which || signing.KeyID(p.Key) == which
	})
	if i < 0 {
		return signing.PublicKey{}, fmt.Errorf("no trusted key is called %q or has that fingerprint (see `observatory keys list`)", which)
	}
	gone := t[i]
	return gone, writeKeysFile(filepath.Join(k.dir, "trusted.json"), slices.Delete(t, i, i+1))
}

// readKeysFile reads a keys file into v strictly; a file not there leaves v as it is.
func readKeysFile(path string, v any) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil {
		err = jsonstrict.Unmarshal(data, v)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}

// writeKeysFile writes a keys file through a temporary file renamed into place.
func writeKeysFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
