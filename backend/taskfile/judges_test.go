package taskfile_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/taskfile"
)

// judged is the minimal task with a model judge signal; %s is replaced by the judge's fields.
const judged = `signals:
  - id: judge
    label: model judge
    judge:
%s`

// TestAJudgeSignal loads a judge signal: its recipe and screenshots default, the outline
// names it, the key's variable is listed with the environment the task reads, and a task
// rebuilt from its spec judges the same recorded answers the same way: a verdict from a
// reply, "could not confirm" from an error, no answer or an unreadable one, never a guess.
func TestAJudgeSignal(t *testing.T) {
	data := fmt.Sprintf(minimal, fmt.Sprintf(judged, "      models: [{provider: openai, model: gpt-4.1-mini, api_key_env: JUDGE_KEY}]\n      rubric: The page must say Done."))
	s, err := taskfile.Parse("judged.yaml", []byte(data), "", taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []agent.JudgeSpec{{Signal: "judge", Recipe: agent.RecipeLastScreenshots, Rubric: "The page must say Done.", Screenshots: taskfile.DefaultJudgeScreenshots}}
	if !reflect.DeepEqual(s.Judges(), want) || len(s.JudgeModels("judge")) != 1 || s.JudgeModels("ok") != nil {
		t.Errorf("judges %+v, models %+v", s.Judges(), s.JudgeModels("judge"))
	}
	o := s.Outline()
	if !reflect.DeepEqual(o.Signals, []string{"judge (judge, last-screenshots): model judge"}) || len(o.Env) != 1 || o.Env[0].Name != "JUDGE_KEY" ||
		o.Env[0].Fields[0] != "signals[0].judge.models[0].api_key_env" {
		t.Errorf("outline %+v", o)
	}
	r, err := taskfile.FromSpec(s.Spec(), nil)
	if err != nil || !reflect.DeepEqual(r.Judges(), s.Judges()) {
		t.Fatalf("rebuilt %v: %+v", err, r)
	}
	page := agent.Answer{Condition: "ok", Kind: "page", Raw: json.RawMessage(`{"text":"Done"}`)}
	reply, _ := json.Marshal(agent.JudgeReply{Model: "openai:gpt-4.1-mini", Recipe: agent.RecipeLastScreenshots, Done: true, Reason: "it says Done"})
	cases := []struct {
		name   string
		answer *agent.Answer
		done   bool
		says   string
	}{
		{"a verdict", &agent.Answer{Condition: "judge", Kind: agent.AnswerJudge, Raw: reply}, true, "it says Done (openai:gpt-4.1-mini, last-screenshots)"},
		{"an error", &agent.Answer{Condition: "judge", Kind: agent.AnswerJudge, Error: "no answer within 60s"}, false, "could not confirm: the judge gave no verdict: no answer within 60s"},
		{"not asked", nil, false, "could not confirm: the judge was not asked"},
		{"unreadable", &agent.Answer{Condition: "judge", Kind: agent.AnswerJudge, Raw: json.RawMessage(`{"done":true,"verdict":"yes"}`)}, false, "unreadable"},
	}
	for _, c := range cases {
		answers := []agent.Answer{page}
		if c.answer != nil {
			answers = append(answers, *c.answer)
		}
		for _, suite := range []taskfile.Suite{s, r} {
			v, err := suite.Judge(agent.Evidence{Answers: answers})
			sg, ok := v.Signal("judge")
			if err != nil || !ok || sg.Done != c.done || !strings.Contains(sg.Evidence, c.says) || (c.done == (sg.Unconfirmed != "")) {
				t.Errorf("%s: %+v (%v), want done %v saying %q", c.name, sg, err, c.done, c.says)
			}
		}
	}
	if _, err := s.Judge(agent.Evidence{Answers: []agent.Answer{page, {Condition: "judge", Kind: "page", Raw: json.RawMessage(`{}`)}}}); err == nil {
		t.Error("a page answer for the judge signal was accepted")
	}
	if _, err := s.Judge(agent.Evidence{Answers: []agent.Answer{{Condition: "ok", Kind: agent.AnswerJudge, Raw: reply}}}); err == nil {
		t.Error("a judge's answer for a page condition was accepted")
	}
}

// TestBadJudgeSignalsAreRefusedWithTheirPath: a judge signal without models, with an
// unknown recipe, a key in place of its variable's name, or too many screenshots is refused
// at its field.
func TestBadJudgeSignalsAreRefusedWithTheirPath(t *testing.T) {
	model := "      models: [{provider: openai, model: m}]\n"
	cases := []struct{ fields, want string }{
		{"      recipe: last-screenshots", "at signals[0].judge.models: name at least one model to ask"},
		{model + "      recipe: vibes", `at signals[0].judge.recipe: want one of [last-screenshots key-points], got "vibes"`},
		{"      models: [{provider: openai, model: m, api_key_env: sk-live-123}]", "at signals[0].judge.models[0].api_key_env: want the name of an environment variable"},
		{"      models: [{provider: gemini, model: m}]", `at signals[0].judge.models[0].provider: want openai`},
		{model + "      screenshots: 11", "at signals[0].judge.screenshots: want 1 to 10 (default 3)"},
		{model + "      screenshots: 2\n      notice: Saved", "at signals[0].judge.notice: unknown field"},
	}
	for _, c := range cases {
		data := fmt.Sprintf(minimal, fmt.Sprintf(judged, c.fields))
		refused(t, "judged.yaml", func() error {
			_, err := taskfile.Parse("judged.yaml", []byte(data), "", taskfile.Options{})
			return err
		}, "judged.yaml: "+c.want)
	}
	both := fmt.Sprintf(minimal, "signals:\n  - id: s\n    notice: Saved\n    judge: {models: [{provider: openai, model: m}]}\n")
	refused(t, "judged.yaml", func() error {
		_, err := taskfile.Parse("judged.yaml", []byte(both), "", taskfile.Options{})
		return err
	},
		"judged.yaml: at signals[0]: give exactly one of notice, parallax, page, judge")
}
