package taskfile

import (
	"strings"
	"testing"
)

// plannerTask is a task with no plan and the given planner field.
func plannerTask(planner string) string {
	return `schema: observatory.task/v1
name: model-task
intent: Book North lab.
base_url: http://127.0.0.1:8080
start_url: /
` + planner + `
success:
  - id: saved
    label: saved
    http: {url: /api/state, expr: "size(body.records) > 0"}
`
}

func TestPlannerField(t *testing.T) {
	ok := plannerTask(`planner:
  kind: model
  models:
    - {provider: openai, model: gpt-4.1-mini, api_key_env: OPENAI_API_KEY}
    - {provider: openai, model: llama3.1, base_url: "http://127.0.0.1:11434/v1"}
    - {provider: anthropic, model: claude-sonnet-4-5, api_key_keyring: anthropic, price_in_per_mtok: 3, price_out_per_mtok: 15}
  persistent: true
  time_limit_ms: 60000`)
	s, err := Parse("model.yaml", []byte(ok), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := s.Planning()
	if !p.UsesModel(len(s.Plan()) > 0) || len(p.Models) != 3 || !p.Persistent || p.TimeLimitMS != 60000 ||
		p.Models[1].BaseURL != "http://127.0.0.1:11434/v1" ||
		p.Models[2] != (ModelSpec{Provider: "anthropic", Model: "claude-sonnet-4-5", APIKeyKeyring: "anthropic", PriceInPerMTok: 3, PriceOutPerMTok: 15}) {
		t.Errorf("planning = %+v", p)
	}
	if !strings.Contains(string(s.Spec()), `"api_key_env":"OPENAI_API_KEY"`) {
		t.Errorf("the spec does not carry the key's variable name: %s", s.Spec())
	}
	for _, tt := range []struct{ planner, says string }{
		{"planner: {kind: guess}", "planner.kind: want script or model"},
		{"planner: {kind: script}", "a scripted planner needs a plan"},
		{"planner: {kind: model}", "planner.models: a model plans this task"},
		{"planner: {models: [{provider: mistral, model: m}]}", "planner.models[0].provider"},
		{"planner: {models: [{provider: openai, model: m, api_key_env: sk-live-123}]}", "never the key itself"},
		{"planner: {models: [{provider: openai, model: m, base_url: 'file:///etc'}]}", "planner.models[0].base_url"},
		{"planner: {models: [{provider: openai, model: m, key: abc}]}", "planner.models[0].key"},
		{"planner: {models: [{provider: openai, model: m, api_key_keyring: 'sk live'}]}", "planner.models[0].api_key_keyring: want the name of an OS keyring entry"},
		{"planner: {models: [{provider: openai, model: m, api_key_keyring: openai, api_key_env: OPENAI_API_KEY}]}", "not both"},
		{"planner: {models: [{provider: openai, model: m, api_key_keyring: openai, base_url: 'https://collector.example/v1'}]}", "planner.models[0].api_key_keyring: a key from the keyring goes only to its provider's own server"},
		{"planner: {models: [{provider: openai, model: m, price_in_per_mtok: -1}]}", "planner.models[0]: prices per million tokens cannot be negative"},
	} {
		if _, err := Parse("bad.yaml", []byte(plannerTask(tt.planner)), "", Options{}); err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: %v, want an error saying %q", tt.planner, err, tt.says)
		}
	}
}
