package app

import (
	"errors"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/planner/model"
	"observatory/backend/runner"
)

// TestSettingsModels saves a model, refuses a key variable that is not a key's variable, and
// tests the saved model through Settings.TestModel against an OpenAI-compatible server.
func TestSettingsModels(t *testing.T) {
	srv, _ := chatServer(t, http.StatusOK, map[string]any{"role": "assistant", "content": "Hi.", "tool_calls": []any{
		map[string]any{"id": "call-1", "type": "function", "function": map[string]any{"name": "done", "arguments": "{}"}}}})
	t.Setenv("LOCAL_API_KEY", "not-a-real-key")
	s := &Settings{path: filepath.Join(t.TempDir(), "settings.json")}
	want := DefaultSettings()
	want.Planner = PlannerModel
	want.Models = []model.ModelConfig{{Provider: model.ProviderOpenAI, BaseURL: srv.URL + "/v1", Model: "tiny", APIKeyEnv: "LOCAL_API_KEY"}}
	if err := s.Save(want); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Get: %+v, %v; want %+v", got, err, want)
	}

	for env, why := range map[string]string{
		"sk-proj-abc123": "never the key itself",
		"openai_api_key": "in capitals",
		"HOME":           "_API_KEY or _TOKEN",
		"AWS_SECRET":     "_API_KEY or _TOKEN",
		"OPENAI API_KEY": "in capitals",
	} {
		bad := want
		bad.Models = []model.ModelConfig{{Provider: model.ProviderOpenAI, Model: "tiny", APIKeyEnv: env}}
		if err := s.Save(bad); err == nil || !strings.Contains(err.Error(), why) || strings.Contains(err.Error(), "sk-proj") {
			t.Errorf("Save with key variable %q: %v; want a refusal saying %q", env, err, why)
		}
		if _, err := s.TestModel(bad.Models[0]); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("TestModel with key variable %q: %v; want a refusal", env, err)
		}
	}
	for _, m := range []model.ModelConfig{
		{Provider: "gemini", Model: "x"},
		{Provider: model.ProviderOpenAI, Model: " "},
		{Provider: model.ProviderOpenAI, Model: "x", BaseURL: "file:///etc/passwd"},
	} {
		bad := want
		bad.Models = []model.ModelConfig{m}
		if err := s.Save(bad); err == nil {
			t.Errorf("Save accepted %+v", m)
		}
	}
	if got, _ := s.Get(); !reflect.DeepEqual(got, want) {
		t.Errorf("a refused save changed the settings: %+v", got)
	}

	got, err := s.TestModel(want.Models[0])
	if err != nil || got.Model != "openai:tiny" || got.Reply != "Hi. · done({})" {
		t.Errorf("TestModel: %+v, %v; want the model's reply", got, err)
	}
}

// TestWindowPlannerWantsAModel: a run the settings give to a model, with none configured,
// does not start and says where to add one.
func TestWindowPlannerWantsAModel(t *testing.T) {
	src, err := LabTask("booking")
	if err != nil {
		t.Fatal(err)
	}
	if plan, err := windowPlanner(src, UserSettings{Planner: PlannerScript}, "r1", "", nil); plan != nil || err != nil {
		t.Errorf("script planner: %v, %v; want the task's own plan", plan != nil, err)
	}
	if _, err := windowPlanner(src, UserSettings{Planner: PlannerModel}, "r1", "", nil); !errors.Is(err, ErrNoModel) {
		t.Errorf("model planner without a model: %v; want ErrNoModel", err)
	}
}

// TestWindowPlannerWaitsCarryTheRunID: the live note "waiting for a model" reaches the window
// as a model-wait event of the run that waits.
func TestWindowPlannerWaitsCarryTheRunID(t *testing.T) {
	src, err := LabTask("booking")
	if err != nil {
		t.Fatal(err)
	}
	set := UserSettings{Planner: PlannerModel, Models: []model.ModelConfig{{Provider: model.ProviderOpenAI, BaseURL: "http://127.0.0.1:9/v1", Model: "tiny"}}}
	var got []runner.Progress
	plan, err := windowPlanner(src, set, "r-42", "", func(p runner.Progress) { got = append(got, p) })
	if err != nil {
		t.Fatal(err)
	}
	p, ok := plan(agent.AttemptSpec{Slug: "saves-normally"}).(*model.Planner)
	if !ok {
		t.Fatal("not a model planner")
	}
	p.Hooks.Wait(model.Wait{Waiting: true, Reason: "rate limited"})
	if len(got) != 1 || got[0].RunID != "r-42" || got[0].Kind != runner.ModelWait || got[0].Slug != "saves-normally" || !got[0].Waiting {
		t.Errorf("events %+v; want one model-wait of run r-42", got)
	}
}

// TestStartAPlanlessTaskWantsAModel: a task file with no plan goes to a model; with none
// configured, Start refuses it and says where to add one, and with one it is accepted.
func TestStartAPlanlessTaskWantsAModel(t *testing.T) {
	s, _, _ := newServices(t, nil)
	info, err := s.Tasks.Load("model-task.yaml", `schema: observatory.task/v1
name: model-task
intent: Book North lab.
lab: booking
start_url: /
success:
  - id: saved
    label: saved
    http: {url: /api/state, expr: "size(body.records) > 0"}
`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Runs.Start(StartRequest{Task: info.Ref}); !errors.Is(err, ErrNoModel) {
		t.Errorf("Start without a model: %v; want ErrNoModel", err)
	}
}
