package browser

import (
	"fmt"
	"regexp"
)

// The versions a Playwright browser server names when it refuses a client of another
// major.minor version (HTTP 428, "Playwright version mismatch").
var (
	serverVersion = regexp.MustCompile(`server version: v(\d+\.\d+)`)
	clientVersion = regexp.MustCompile(`client version: v(\d+\.\d+)`)
)

// versionMismatch is the error of a browser server at endpoint that refused this driver's
// Playwright version, naming both; nil when err is not that refusal.
func versionMismatch(endpoint string, err error) error {
	s, c := serverVersion.FindStringSubmatch(err.Error()), clientVersion.FindStringSubmatch(err.Error())
	if s == nil || c == nil {
		return nil
	}
	return fmt.Errorf("the browser server at %s runs Playwright %s, but this Observatory's driver is Playwright %s: "+
		"a server must match the driver's major.minor version, so run one of Playwright %s", endpoint, s[1], c[1], c[1])
}
