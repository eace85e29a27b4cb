package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// envTask reads a secret from the environment into a header.
const envTask = `schema: observatory.task/v1
name: env-task
intent: Look at the page.
start_url: http://127.0.0.1:9/
plan:
  - {description: Verify, action: verify}
success:
  - id: api
    http: {url: "http://127.0.0.1:9/api", headers: {X-Key: "${WINDOW_FAKE_TOKEN}"}, expr: status == 200}
`

// TestTheWindowAsksBeforeATaskReadsTheEnvironment opens a task file that reads a secret in
// the window: the task lists it, not allowed; a run is refused naming the setting, and
// starts once the user says yes (the request's allow_env) or allows it in the settings.
func TestTheWindowAsksBeforeATaskReadsTheEnvironment(t *testing.T) {
	t.Setenv("WINDOW_FAKE_TOKEN", "fake-token-value")
	s, rec, _ := newServices(t, func(context.Context) (agent.Browser, error) {
		return nil, errors.New("no browser in this test")
	})
	info, err := s.Tasks.Load("env.yaml", envTask)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Env) != 1 || info.Env[0].Name != "WINDOW_FAKE_TOKEN" || info.Env[0].Allowed || !info.Env[0].Secret {
		t.Fatalf("the task lists %+v; want WINDOW_FAKE_TOKEN, secret, not allowed", info.Env)
	}
	if _, err := s.Runs.Start(StartRequest{Task: info.Ref}); err == nil || !strings.Contains(err.Error(), "allow_env") {
		t.Fatalf("Start without leave: %v; want a refusal naming allow_env", err)
	}
	if _, err := s.Runs.Start(StartRequest{Task: info.Ref, AllowEnv: []string{"WINDOW_FAKE_TOKEN"}}); err != nil {
		t.Fatalf("Start after a yes: %v", err)
	}
	rec.waitEnd(t)
	set, err := s.Runs.settings.Get()
	if err != nil {
		t.Fatal(err)
	}
	set.AllowEnv = []string{"WINDOW_FAKE_TOKEN"}
	if err := s.Runs.settings.Save(set); err != nil {
		t.Fatal(err)
	}
	tasks, err := s.Tasks.List()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(tasks, func(ti TaskInfo) bool { return ti.Ref == info.Ref })
	if i < 0 || len(tasks[i].Env) != 1 || !tasks[i].Env[0].Allowed {
		t.Errorf("with allow_env in the settings the task lists %+v; want it allowed", tasks)
	}
}

// TestSettingsRefuseAVagueAllowance: an allowed folder must be absolute (a relative one would
// depend on where the app started), an allowed variable a name or a pattern of names.
func TestSettingsRefuseAVagueAllowance(t *testing.T) {
	s := SettingsIn(t.TempDir())
	for _, bad := range []UserSettings{{AllowPaths: []string{"tasks"}}, {AllowEnv: []string{"${HOME}"}}, {AllowEnv: []string{"A B"}}} {
		if err := s.Save(bad); err == nil || !strings.Contains(err.Error(), "settings not saved: allowed") {
			t.Errorf("Save(%+v) = %v; want it refused", bad, err)
		}
	}
	good := UserSettings{AllowPaths: []string{t.TempDir()}, AllowEnv: []string{"TRACKER_*", "TRACKER_TOKEN"}, AllowLinkLocal: true}
	if err := s.Save(good); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(); err != nil || !slices.Equal(got.AllowEnv, good.AllowEnv) || !slices.Equal(got.AllowPaths, good.AllowPaths) || !got.AllowLinkLocal {
		t.Errorf("Get = %+v, %v; want what was saved", got, err)
	}
}
