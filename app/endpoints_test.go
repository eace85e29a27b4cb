package app

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/runner"
)

// chromiumVersion is how Chromium numbers its releases.
var chromiumVersion = regexp.MustCompile(`^\d+\.\d+\.\d+\.\d+$`)

// TestHealthOfABrowserServerAndADeadEndpoint checks a real Playwright browser server beside a
// CDP address nothing listens on: the server connects, with Chromium's version, its pages can
// be watched live and the attempt running there is counted; the dead one says why it does not
// connect.
func TestHealthOfABrowserServerAndADeadEndpoint(t *testing.T) {
	srv := browsertest.Server(t)
	exe, err := browser.ChromiumPath()
	if err != nil {
		t.Fatal(err)
	}
	server := RemoteBrowser{URL: srv.URL, Executable: exe}
	dead := RemoteBrowser{URL: "http://127.0.0.1:1", CDP: true}
	load := &endpointLoad{}
	b := &Browsers{settings: &Settings{path: filepath.Join(t.TempDir(), "settings.json")}, remote: []RemoteBrowser{server, dead},
		launch: LaunchChromium, load: load}
	load.observe(runner.Progress{RunID: "r", Kind: runner.AttemptStarted, Slug: "saves-normally", Endpoint: server.String()})
	load.observe(runner.Progress{RunID: "r", Kind: runner.AttemptStarted, Slug: "wrong-room", Endpoint: server.String()})
	load.observe(runner.Progress{RunID: "r", Kind: runner.AttemptFinished, Slug: "wrong-room", Endpoint: server.String()})

	health, err := b.Health()
	if err != nil {
		t.Fatal(err)
	}
	if len(health) != 2 {
		t.Fatalf("%d endpoints, want 2: %+v", len(health), health)
	}
	up, down := health[0], health[1]
	if up.Name != server.String() || up.Kind != "browser-server" || !up.Connects || !chromiumVersion.MatchString(up.Version) || !up.Live || up.Running != 1 {
		t.Errorf("the browser server: %+v; want it connecting, with a version, live, one attempt running", up)
	}
	if down.Kind != "cdp" || down.Connects || down.Error == "" || down.Running != 0 {
		t.Errorf("the dead CDP endpoint: %+v; want it not connecting, saying why", down)
	}
	load.observe(runner.Progress{RunID: "r", Kind: runner.RunFinished})
	if n := load.running(server.String()); n != 0 {
		t.Errorf("%d attempts still counted after the run finished", n)
	}
}

// TestHealthOfTheLocalChromium checks the local endpoint, the only one without remote
// browsers: Chromium launches here, with its version.
func TestHealthOfTheLocalChromium(t *testing.T) {
	browsertest.Ready(t)
	b := &Browsers{settings: &Settings{path: filepath.Join(t.TempDir(), "settings.json")}, launch: LaunchChromium, load: &endpointLoad{}}
	health, err := b.Health()
	if err != nil {
		t.Fatal(err)
	}
	if len(health) != 1 || health[0].Name != runner.LocalEndpoint || !health[0].Connects || !chromiumVersion.MatchString(health[0].Version) {
		t.Fatalf("health %+v; want the local Chromium connecting, with its version", health)
	}
	if !strings.Contains(health[0].Kind, "local") || !health[0].Live {
		t.Errorf("health %+v; want it local and live", health[0])
	}
}
