// Package version says which build of Observatory is running: its version, the commit it was
// built from and when it was built. Release builds set all three with the linker
// (scripts/build.sh does):
//
//	go build -ldflags "-X observatory/app/version.version=1.2.3 \
//	    -X observatory/app/version.commit=<hash> -X observatory/app/version.date=<RFC 3339>"
//
// A plain `go build` leaves them empty; Get then falls back to the version control details
// the go command stamps into the binary, and to "dev" and "unknown".
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set with -ldflags -X; empty unless a build script sets them.
var (
	version string
	commit  string
	date    string
)

// Info describes this build.
type Info struct {
	// Version is the release version ("1.2.3", "0.0.0-dev.42+g1a2b3c4"), or "dev".
	Version string `json:"version"`
	// Commit is the source revision, with "-dirty" when the tree had local changes, or "unknown".
	Commit string `json:"commit"`
	// Date is when the binary was built (or, without a build script, when its commit was
	// made), in RFC 3339, or "unknown".
	Date string `json:"date"`
	// Go is the Go release and the target system, as in "go1.26.8 linux/amd64".
	Go string `json:"go"`
}

// Get returns this build's Info.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return resolve(version, commit, date, bi)
}

// resolve fills what the linker did not set from the go command's build info, which may be nil.
func resolve(version, commit, date string, bi *debug.BuildInfo) Info {
	info := Info{Version: version, Commit: commit, Date: date,
		Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		vcs := map[string]string{}
		for _, s := range bi.Settings {
			vcs[s.Key] = s.Value
		}
		if info.Commit == "" && vcs["vcs.revision"] != "" {
			info.Commit = vcs["vcs.revision"]
			if vcs["vcs.modified"] == "true" {
				info.Commit += "-dirty"
			}
		}
		if info.Date == "" {
			info.Date = vcs["vcs.time"]
		}
	}
	if info.Version == "" {
		info.Version = "dev"
	}
	if info.Commit == "" {
		info.Commit = "unknown"
	}
	if info.Date == "" {
		info.Date = "unknown"
	}
	return info
}

// String is the multi-line text `observatory version` prints.
func (i Info) String() string {
	return fmt.Sprintf("observatory %s\ncommit  %s\nbuilt   %s\ngo      %s\n", i.Version, i.Commit, i.Date, i.Go)
}
