package confine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// uploads makes an uploads folder with report.pdf and docs/notes.txt in it, a secret beside
// it, and symlinks inside it: one to a file inside, one to the secret, one to the folder
// that holds the secret.
func uploads(t *testing.T) (root, secret string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "uploads")
	home := filepath.Join(base, "home", ".ssh")
	for _, d := range []string{filepath.Join(root, "docs"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret = filepath.Join(home, "id_ed25519")
	for path, text := range map[string]string{
		filepath.Join(root, "report.pdf"):        "%PDF",
		filepath.Join(root, "docs", "notes.txt"): "notes",
		secret:                                   "-----BEGIN OPENSSH PRIVATE KEY-----",
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		filepath.Join(root, "latest.pdf"): "report.pdf",
		filepath.Join(root, "key"):        secret,
		filepath.Join(root, "ssh"):        home,
		filepath.Join(root, "up"):         "..",
	} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	return root, secret
}

func TestResolveKeepsUploadsInsideTheFolder(t *testing.T) {
	root, secret := uploads(t)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		want    string // the resolved path relative to the folder; "" for a refusal
		errHas  string
		outside bool // the refusal wraps ErrOutside
	}{
		{"report.pdf", "report.pdf", "", false},
		{"docs/notes.txt", "docs/notes.txt", "", false},
		{"./docs/../report.pdf", "", "`..`", true},
		{"latest.pdf", "report.pdf", "", false}, // a symlink that stays inside
		{"../home/.ssh/id_ed25519", "", "`..`", true},
		{"docs/../../home/.ssh/id_ed25519", "", "`..`", true},
		{`..\home\.ssh\id_ed25519`, "", "`..`", true},
		{secret, "", "absolute path", true},
		{"/etc/passwd", "", "absolute path", true},
		{"key", "", "outside the uploads folder", true},            // a symlink to a file outside
		{"ssh/id_ed25519", "", "outside the uploads folder", true}, // through a symlinked folder
		{"up/home/.ssh/id_ed25519", "", "outside the uploads folder", true},
		{"docs", "", "not a regular file", true},
		{"missing.pdf", "", "no such file", false},
		{"", "", "no file named", true},
	}
	for _, tt := range tests {
		got, err := Resolve(root, tt.name)
		if tt.want != "" {
			if err != nil || got != filepath.Join(realRoot, tt.want) {
				t.Errorf("Resolve(%q) = %q, %v; want %s", tt.name, got, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.errHas) || errors.Is(err, ErrOutside) != tt.outside {
			t.Errorf("Resolve(%q) = %q, %v; want a refusal mentioning %q (outside: %v)", tt.name, got, err, tt.errHas, tt.outside)
		}
	}
	if _, err := Resolve("", "report.pdf"); err == nil || !strings.Contains(err.Error(), "uploads:") {
		t.Errorf("no folder: %v, want a refusal naming the uploads: field", err)
	}
}

func TestSafeName(t *testing.T) {
	long := strings.Repeat("é", 300) + ".pdf"
	tests := []struct{ offered, want string }{
		{"statement.pdf", "statement.pdf"},
		{"../../.bashrc", "bashrc"},
		{`..\..\Windows\System32\drivers\etc\hosts`, "hosts"},
		{"/etc/passwd", "passwd"},
		{".bashrc", "bashrc"},
		{"CON", "_CON"},
		{"con.txt", "_con.txt"},
		{"NUL", "_NUL"},
		{"com1.pdf", "_com1.pdf"},
		{"LPT9", "_LPT9"},
		{"console.txt", "console.txt"},
		{"report\x00.pdf\x1b[2J", "report.pdf[2J"},
		{"in\nvoice\r.pdf", "invoice.pdf"},
		{"evil\u202egpj.exe", "evilgpj.exe"},
		{"a<b>c:d\"e|f?g*h.txt", "a_b_c_d_e_f_g_h.txt"},
		{"trailing. . ", "trailing"},
		{"..", "download"},
		{"", "download"},
		{"\x01\x02", "download"},
	}
	for _, tt := range tests {
		if got := SafeName(tt.offered); got != tt.want {
			t.Errorf("SafeName(%q) = %q, want %q", tt.offered, got, tt.want)
		}
	}
	got := SafeName(long)
	if len(got) > maxNameBytes || !strings.HasSuffix(got, ".pdf") || !utf8.ValidString(got) {
		t.Errorf("SafeName(300 é.pdf) = %q (%d bytes), want at most %d bytes of whole characters ending .pdf", got, len(got), maxNameBytes)
	}
}

func TestCreateNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "statement.pdf"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	var names []string
	for range 3 {
		f, name, err := Create(dir, "../statement.pdf")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("theirs"); err != nil {
			t.Fatal(err)
		}
		f.Close()
		names = append(names, name)
	}
	if strings.Join(names, ",") != "statement (2).pdf,statement (3).pdf,statement (4).pdf" {
		t.Errorf("names %q, want numbered copies beside statement.pdf", names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "statement.pdf")); string(b) != "mine" {
		t.Errorf("statement.pdf now holds %q: a download overwrote it", b)
	}
	long := strings.Repeat("x", 400) + ".txt"
	for i := range 2 {
		f, name, err := Create(dir, long)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if len(name) > maxNameBytes || !strings.HasSuffix(name, ".txt") || (i == 1 && !strings.HasSuffix(name, " (2).txt")) {
			t.Errorf("copy %d of a long name: %q", i+1, name)
		}
	}
	if _, _, err := Create("", "a.pdf"); err == nil || !strings.Contains(err.Error(), "downloads:") {
		t.Errorf("no folder: %v, want a refusal naming the downloads: field", err)
	}
}

// TestScopeKeepsPathsInsideItsFolders resolves paths a task file in home might name: inside
// it, through symlinks out of it, absolute, with `..`, not yet existing, and in a folder the
// user allowed.
func TestScopeKeepsPathsInsideItsFolders(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, victim, shared := filepath.Join(base, "task"), filepath.Join(base, "victim", ".ssh"), filepath.Join(base, "shared")
	for _, d := range []string{filepath.Join(home, "out"), victim, shared} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		filepath.Join(home, "ssh"):      victim,
		filepath.Join(home, "inside"):   "out",
		filepath.Join(home, "dangling"): filepath.Join(base, "victim", "later"),
	} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		scope   Scope
		path    string
		want    string // "" for a refusal
		refusal bool   // the error wraps ErrNotAllowed
	}{
		{Scope{Home: home}, "out", filepath.Join(home, "out"), false},
		{Scope{Home: home}, "inside", filepath.Join(home, "out"), false},
		{Scope{Home: home}, ".", home, false},
		{Scope{Home: home}, "out/new.db", filepath.Join(home, "out", "new.db"), false},
		{Scope{Home: home}, "../victim/.ssh", "", true},
		{Scope{Home: home}, victim, "", true},
		{Scope{Home: home}, "ssh", "", true},
		{Scope{Home: home}, "ssh/authorized_keys", "", true},
		{Scope{Home: home}, "out/../../victim/.ssh", "", true},
		{Scope{Home: home}, "dangling", "", false},
		{Scope{Home: home, Allowed: []string{shared}}, filepath.Join(shared, "state.json"), filepath.Join(shared, "state.json"), false},
		{Scope{Home: home, Allowed: []string{shared}}, "ssh", "", true},
		{Scope{}, filepath.Join(home, "out"), "", true},
		{Scope{Allowed: []string{home}}, filepath.Join(home, "out"), filepath.Join(home, "out"), false},
	}
	for _, tt := range tests {
		got, err := tt.scope.Path(tt.path)
		if tt.want != "" {
			if err != nil || got != tt.want {
				t.Errorf("%+v.Path(%q) = %q, %v; want %s", tt.scope, tt.path, got, err, tt.want)
			}
			continue
		}
		if err == nil || errors.Is(err, ErrNotAllowed) != tt.refusal {
			t.Errorf("%+v.Path(%q) = %q, %v; want a refusal (not allowed: %v)", tt.scope, tt.path, got, err, tt.refusal)
		}
	}
}
