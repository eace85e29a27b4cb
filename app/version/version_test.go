package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	stamped := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"},
		{Key: "vcs.time", Value: "2026-11-30T10:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	tests := []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  Info
	}{
		{name: "linker flags win", version: "1.2.3", commit: "def456", date: "2026-12-01T00:00:00Z", bi: stamped,
			want: Info{Version: "1.2.3", Commit: "def456", Date: "2026-12-01T00:00:00Z"}},
		{name: "vcs stamp fills the gaps", bi: stamped,
			want: Info{Version: "dev", Commit: "abc123-dirty", Date: "2026-11-30T10:00:00Z"}},
		{name: "nothing known", bi: nil,
			want: Info{Version: "dev", Commit: "unknown", Date: "unknown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := resolve(tt.version, tt.commit, tt.date, tt.bi)
			if !strings.HasPrefix(got.Go, "go") {
				t.Errorf("Go = %q, want the Go release", got.Go)
			}
			got.Go = ""
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestString(t *testing.T) {
	got := Info{Version: "1.2.3", Commit: "abc", Date: "2026-12-01T00:00:00Z", Go: "go1.26.8 linux/amd64"}.String()
	want := "observatory 1.2.3\ncommit  abc\nbuilt   2026-12-01T00:00:00Z\ngo      go1.26.8 linux/amd64\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
