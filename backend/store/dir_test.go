package store

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestOSDataDir(t *testing.T) {
	home := func() (string, error) { return "/home/u", nil }
	noHome := func() (string, error) { return "", errors.New("no home") }
	tests := []struct {
		goos string
		env  map[string]string
		home func() (string, error)
		want string
	}{
		{"linux", nil, home, filepath.Join("/home/u", ".local", "share", "observatory")},
		{"linux", map[string]string{"XDG_DATA_HOME": "/data"}, noHome, filepath.Join("/data", "observatory")},
		{"linux", map[string]string{"XDG_DATA_HOME": "relative"}, home, filepath.Join("/home/u", ".local", "share", "observatory")},
		{"darwin", map[string]string{"XDG_DATA_HOME": "/data"}, home, filepath.Join("/home/u", "Library", "Application Support", "Observatory")},
		{"windows", map[string]string{"LocalAppData": `C:\Users\u\AppData\Local`}, home, filepath.Join(`C:\Users\u\AppData\Local`, "Observatory")},
		{"windows", nil, home, ""},
		{"linux", nil, noHome, ""},
	}
	for _, tt := range tests {
		got, err := osDataDir(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("osDataDir(%s, %v) = %q, %v; want %q", tt.goos, tt.env, got, err, tt.want)
		}
	}
}

func TestDefaultDirHonoursEnv(t *testing.T) {
	t.Setenv(DataDirEnv, "/tmp/obs")
	if got, err := DefaultDir(); got != "/tmp/obs" || err != nil {
		t.Errorf("DefaultDir with %s set = %q, %v", DataDirEnv, got, err)
	}
}
