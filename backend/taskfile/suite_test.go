package taskfile_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
)

// signIn is a task with a secret typed from the environment, a literal secret, a secret
// header, and a base URL from the environment.
const signIn = `schema: observatory.task/v1
name: sign-in
intent: Sign in and open the dashboard.
base_url: ${SITE}
start_url: /login
session:
  setup:
    - {description: Fill the password, action: fill, target: {label: Password}, value_env: SITE_PASSWORD}
    - {description: Fill the PIN, action: fill, target: {label: PIN}, value: "4321", secret: true}
    - {description: Submit the sign-in form, action: submit, target: {role: button, name: Sign in}}
plan:
  - {description: Open the dashboard, action: navigate, value: /dashboard}
  - {description: Verify, action: verify}
success:
  - id: dashboard
    http: {url: /api/me, headers: {Authorization: "Bearer ${SITE_TOKEN}"}, expr: status == 200}
  - id: url
    page: {url: /dashboard$}
signals:
  - {id: heading, page: {visible: {role: heading, name: Dashboard}}}
attempts:
  - {name: fast, config: {deadline_ms: 500}}
  - {name: patient, title: Patient, config: {wait: fixed, fixed_wait_ms: 1000}}
`

var signInEnv = map[string]string{"SITE": "http://127.0.0.1:9", "SITE_PASSWORD": "pa55-word", "SITE_TOKEN": "t0ken"}

// signInTrust is what the user allows the sign-in task: its three variables, by name.
var signInTrust = taskfile.Trust{Env: []string{"SITE", "SITE_PASSWORD", "SITE_TOKEN"}}

func lookup(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

// TestSecretsStayOutOfThePlanAndTheSpec checks that values from the environment and literal
// secrets are masked in the plan and absent from the spec, while the planner types them.
func TestSecretsStayOutOfThePlanAndTheSpec(t *testing.T) {
	s, err := taskfile.Parse("sign-in.yaml", []byte(signIn), "", taskfile.Options{LookupEnv: lookup(signInEnv), Trust: signInTrust})
	if err != nil {
		t.Fatal(err)
	}
	plan := s.Plan()
	if plan[0].Value == "pa55-word" || plan[1].Value == "4321" || !plan[0].Secret || !plan[1].Secret {
		t.Errorf("the plan shows secrets: %+v", plan[:2])
	}
	if plan[3].Value != "••••••/dashboard" || s.Task().StartURL != "••••••/login" {
		t.Errorf("relative URLs not resolved against base_url, or the base URL from the environment shown: %q, %q", plan[3].Value, s.Task().StartURL)
	}
	for range 3 {
		if _, err := s.Planner(s.Attempts()[0]).Next(context.Background(), agent.Sample{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	spec := string(s.Spec())
	for _, secret := range []string{"pa55-word", "4321", "t0ken"} {
		if strings.Contains(spec, secret) {
			t.Errorf("the spec holds %q: %s", secret, spec)
		}
	}
	if !strings.Contains(spec, `"base_url":"••••••"`) || !strings.Contains(spec, "${SITE_TOKEN}") || strings.Contains(spec, "127.0.0.1:9") {
		t.Errorf("the spec should hold the base URL masked and the header's reference: %s", spec)
	}
	first, _ := s.Planner(s.Attempts()[0]).Next(context.Background(), agent.Sample{}, nil)
	if first.Action.Value != "pa55-word" {
		t.Errorf("the planner types %q, want the password from the environment", first.Action.Value)
	}
	if _, err := s.Start(context.Background(), s.Attempts()[0]); err != nil {
		t.Errorf("Start with every variable set: %v", err)
	}
	delete(signInEnv, "SITE_TOKEN")
	defer func() { signInEnv["SITE_TOKEN"] = "t0ken" }()
	if _, err := s.Start(context.Background(), s.Attempts()[0]); err == nil || !strings.Contains(err.Error(), "SITE_TOKEN, which is not set") {
		t.Errorf("Start without SITE_TOKEN: %v", err)
	}
	if _, err := runner.Check(s, nil, 1, agent.ConfigOverride{}); err == nil || !strings.Contains(err.Error(), "SITE_TOKEN, which is not set") {
		t.Errorf("a run without SITE_TOKEN is not refused before it is recorded: %v", err)
	}
}

// TestFromSpecRebuildsTheSameTask rebuilds a task from its spec: the same task, plan,
// attempts and outline, the same verdicts on the same evidence, and no way to start it.
func TestFromSpecRebuildsTheSameTask(t *testing.T) {
	s, err := taskfile.Parse("sign-in.yaml", []byte(signIn), "", taskfile.Options{LookupEnv: lookup(signInEnv), Trust: signInTrust})
	if err != nil {
		t.Fatal(err)
	}
	r, err := taskfile.FromSpec(s.Spec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ro, so := r.Outline(), s.Outline()
	ro.Env, so.Env = nil, nil // a rebuilt task reads no environment
	if !reflect.DeepEqual(r.Task(), s.Task()) || !reflect.DeepEqual(r.Plan(), s.Plan()) ||
		!reflect.DeepEqual(r.Attempts(), s.Attempts()) || !reflect.DeepEqual(ro, so) {
		t.Errorf("rebuilt %+v %+v\nfrom     %+v %+v", r.Task(), ro, s.Task(), so)
	}
	if string(r.Spec()) != string(s.Spec()) {
		t.Errorf("the spec is not stable:\n%s\n%s", r.Spec(), s.Spec())
	}
	ev := agent.Evidence{Answers: []agent.Answer{
		{Condition: "dashboard", Kind: "http", Raw: json.RawMessage(`{"status":200,"content_type":"application/json","body":{}}`)},
		{Condition: "url", Kind: "page", Raw: json.RawMessage(`{"url":"http://127.0.0.1:9/dashboard"}`)},
		{Condition: "heading", Kind: "page", Error: "observing the page failed"},
	}}
	got, err := r.Judge(ev)
	want, _ := s.Judge(ev)
	if err != nil || !reflect.DeepEqual(got, want) || !got.Gate.Done || got.Signals[0].Unconfirmed == "" || got.Truth.Label != taskfile.GateAsTruthLabel {
		t.Errorf("rebuilt judges %+v (%v), loaded %+v", got, err, want)
	}
	if _, err := r.Start(context.Background(), r.Attempts()[0]); err == nil {
		t.Error("a task rebuilt from a run file started an attempt")
	}
	for _, bad := range []agent.Answer{{Condition: "nope", Kind: "page"}, ev.Answers[0]} {
		if _, err := r.Judge(agent.Evidence{Answers: append(ev.Answers[:1:1], bad)}); err == nil {
			t.Errorf("judging with an extra answer %+v was accepted", bad)
		}
	}
}

// TestFromSpecReadsNoEnvironment: a spec naming ${VAR} in its base URL is refused, so a run
// file cannot pull values out of the machine that imports it.
func TestFromSpecReadsNoEnvironment(t *testing.T) {
	t.Setenv("HOME_SECRET", "x")
	spec := `{"schema":"observatory.task/v1","name":"t","intent":"i","base_url":"http://${HOME_SECRET}.example","start_url":"/","success":[{"id":"a","page":{"text":"x"}}]}`
	_, err := taskfile.FromSpec(json.RawMessage(spec), nil)
	var te *taskfile.Error
	if !errors.As(err, &te) || te.Path != "base_url" || !strings.Contains(err.Error(), "HOME_SECRET is not set") {
		t.Errorf("FromSpec = %v", err)
	}
}

// TestALabTaskNeedsTheLabs: a task naming a lab loads, and rebuilds from its spec, only with
// the registry the composition root gives (taskfile knows no lab of its own); without one it
// is refused at its lab field, never a panic.
func TestALabTaskNeedsTheLabs(t *testing.T) {
	s, err := taskfile.Load(bookingTask, taskfile.Options{Labs: labs.ForTaskFiles})
	if err != nil {
		t.Fatal(err)
	}
	r, err := taskfile.FromSpec(s.Spec(), labs.ForTaskFiles)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.(agent.Replayer); !ok || r.Outline().Lab != "booking" {
		t.Errorf("the rebuilt lab task is %T on lab %q, want a replayer on booking", r, r.Outline().Lab)
	}
	const want = "at lab: this build knows no built-in labs"
	for name, load := range map[string]func() error{
		"Load":     func() error { _, err := taskfile.Load(bookingTask, taskfile.Options{}); return err },
		"FromSpec": func() error { _, err := taskfile.FromSpec(s.Spec(), nil); return err },
	} {
		var te *taskfile.Error
		if err := load(); !errors.As(err, &te) || te.Path != "lab" || !strings.Contains(err.Error(), want) {
			t.Errorf("%s with no labs: %v, want %q", name, err, want)
		}
	}
}

// TestYAMLAndJSONAreOneFormat loads the tracker's task as YAML and as the same document in
// a .json file: the same task.
func TestYAMLAndJSONAreOneFormat(t *testing.T) {
	env := lookup(map[string]string{"TRACKER_URL": "http://127.0.0.1:9", "TRACKER_DB": "/tmp/t.db"})
	trust := taskfile.Trust{Paths: []string{"/tmp"}, Env: []string{"TRACKER_*"}}
	y, err := taskfile.Load("testdata/tracker/create-issue.yaml", taskfile.Options{LookupEnv: env, Trust: trust})
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("testdata/tracker/create-issue.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	asJSON, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	j, err := taskfile.Parse(filepath.Join(t.TempDir(), "create-issue.json"), asJSON, "testdata/tracker", taskfile.Options{LookupEnv: env, Trust: trust})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(j.Outline(), y.Outline()) || string(j.Spec()) != string(y.Spec()) {
		t.Errorf("JSON %+v, YAML %+v", j.Outline(), y.Outline())
	}
}
