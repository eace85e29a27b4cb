package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"observatory/backend/agent"
	"observatory/backend/planner/model"
)

// ModelTestLimit bounds a model test: one tiny request, with whatever retries the planner
// makes on the way.
const ModelTestLimit = 15 * time.Second

// ModelTest is what a model answered to one tiny request through the real planner.
type ModelTest struct {
	// Model is "provider:model".
	Model string `json:"model"`
	// Reply is what the model wrote and the tool calls it made, in words.
	Reply     string `json:"reply"`
	LatencyMS int64  `json:"latency_ms"`
}

// testTask asks for the smallest useful answer: one tool call, done.
var testTask = agent.Task{Name: "model test", Intent: "This is a connection test: call the done tool now, nothing else."}

// TestModel sends one tiny request to m through the model planner, as a run would (its key
// read from m's keyring entry or environment variable, never from the UI), and returns the
// reply, or why there was none, within ModelTestLimit.
func (s *Settings) TestModel(m model.ModelConfig) (ModelTest, error) {
	if err := CheckModel(m); err != nil {
		return ModelTest{Model: m.Name()}, err
	}
	return testModel(context.Background(), m, ModelTestLimit)
}

func testModel(ctx context.Context, m model.ModelConfig, limit time.Duration) (ModelTest, error) {
	p, err := model.New(testTask, model.Config{Models: []model.ModelConfig{m}, TimeLimitMS: int(limit.Milliseconds()), MaxOutputTokens: 64})
	if err != nil {
		return ModelTest{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	start := time.Now()
	prop, err := p.Next(ctx, agent.Sample{URL: "about:blank", Title: "Model test"}, nil)
	out := ModelTest{Model: m.Name(), LatencyMS: time.Since(start).Milliseconds()}
	if err != nil {
		return out, fmt.Errorf("%s did not answer: %w", m.Name(), err)
	}
	var said []string
	for _, t := range prop.Turns {
		if t.Text != "" {
			said = append(said, t.Text)
		}
		for _, c := range t.Calls {
			said = append(said, fmt.Sprintf("%s(%s)", c.Name, c.Arguments))
		}
	}
	out.Reply = strings.Join(said, " · ")
	return out, nil
}
