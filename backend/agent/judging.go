package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"observatory/backend/jsonstrict"
)

// AnswerJudge is the Kind of the recorded answer of a model judge: a signal that asks a
// language model whether the attempt did what its intent asked (see JudgeReply).
const AnswerJudge = "judge"

// The recipes a model judge follows.
const (
	// RecipeLastScreenshots shows the model the intent, the actions and the last screenshots
	// and asks for a verdict, as WebVoyager's auto-evaluator and browser-use's judge do.
	RecipeLastScreenshots = "last-screenshots"
	// RecipeKeyPoints asks the model first for the task's key points, then shows the
	// screenshots of the steps that changed the page most, then asks for a verdict against
	// each key point, as Online-Mind2Web's WebJudge does.
	RecipeKeyPoints = "key-points"
)

// Recipes lists every recipe.
var Recipes = []string{RecipeLastScreenshots, RecipeKeyPoints}

// JudgeSpec is what a task declares of one model judge signal, besides its models.
type JudgeSpec struct {
	// Signal is the signal's ID, which its recorded answer names as its condition.
	Signal string
	// Recipe is one of Recipes.
	Recipe string
	// Rubric is the task's own criteria, given to the model with the intent; empty for none.
	Rubric string
	// Screenshots is how many screenshots the model is shown at most.
	Screenshots int
}

// JudgeRequest is one model judge's question about an ended attempt: its spec, the intent
// word for word and the attempt's recorded steps and claim. MediaDir is the folder the
// steps' screenshot paths are relative to; empty when none was recorded.
type JudgeRequest struct {
	JudgeSpec
	Intent   string
	Steps    []Step
	Claim    *Claim
	MediaDir string
}

// JudgeReply is a model judge's recorded answer (an Answer's Raw, Kind AnswerJudge): what it
// was asked, in summary, what it replied, its verdict, and what asking cost. It holds no API
// key and no provider type, so run files and the store keep it as it is.
type JudgeReply struct {
	// Model is the model that answered, as "provider:model".
	Model string `json:"model"`
	// Recipe is the recipe the request followed.
	Recipe string `json:"recipe"`
	// Request summarises what was sent: the messages and screenshots, by step.
	Request string `json:"request"`
	// KeyPoints are the key points the model named first (the key-points recipe).
	KeyPoints string `json:"key_points,omitempty"`
	// Text is what the model wrote besides its verdict call.
	Text string `json:"text,omitempty"`
	// Done and Reason are the verdict tool call's arguments.
	Done   bool   `json:"done"`
	Reason string `json:"reason"`
	// InTokens, OutTokens and CostUSD are every request's, the retried ones included.
	InTokens  int64   `json:"in_tokens"`
	OutTokens int64   `json:"out_tokens"`
	CostUSD   float64 `json:"cost_usd"`
	LatencyMS int64   `json:"latency_ms"`
	// Retries counts requests retried before the verdict; Notes say what happened on the way.
	Retries int      `json:"retries,omitempty"`
	Notes   []string `json:"notes,omitempty"`
}

// JudgeAsker asks a model judge about an ended attempt. It always returns the answer to
// record: the reply as Raw, or Error when no model gave a verdict (unreachable, errors after
// its retries, a malformed reply), with Raw still holding what was spent, if anything.
type JudgeAsker interface {
	AskJudge(ctx context.Context, req JudgeRequest) Answer
}

// Consulted is a Suite with model judge signals: the runner asks each through its
// JudgeAsker once an attempt has ended and records the answers with the oracle's.
type Consulted interface {
	Judges() []JudgeSpec
}

// JudgeVerdict reads a model judge's recorded answer into its verdict, calling no model: a
// missing answer, an error or an unreadable reply is "could not confirm", never a guess.
func JudgeVerdict(a *Answer) Verdict {
	switch {
	case a == nil:
		return Unconfirmed("the judge was not asked")
	case a.Error != "":
		return Unconfirmed("the judge gave no verdict: " + a.Error)
	}
	r, err := ReadJudgeReply(a.Raw)
	if err != nil {
		return Unconfirmed(err.Error())
	}
	return Verdict{Done: r.Done, Evidence: fmt.Sprintf("%s (%s, %s)", r.Reason, r.Model, r.Recipe)}
}

// ReadJudgeReply decodes a recorded judge reply strictly: no duplicate, case-variant or
// unknown field, and a model named. Nil or empty raw is no reply.
func ReadJudgeReply(raw []byte) (JudgeReply, error) {
	var r JudgeReply
	if len(raw) == 0 {
		return r, errors.New("the judge's answer records no reply")
	}
	if err := jsonstrict.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("the judge's recorded reply is unreadable: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&JudgeReply{}); err != nil {
		return r, fmt.Errorf("the judge's recorded reply is unreadable: %v", err)
	}
	if r.Model == "" {
		return r, errors.New("the judge's recorded reply is unreadable: it names no model")
	}
	return r, nil
}

// JudgeSpend is what asking the judges of answers cost, the ones that gave no verdict too.
func JudgeSpend(answers []Answer) Spend {
	var s Spend
	for _, a := range answers {
		if a.Kind != AnswerJudge {
			continue
		}
		if r, err := ReadJudgeReply(a.Raw); err == nil {
			s.Tokens += r.InTokens + r.OutTokens
			s.MoneyUSD += r.CostUSD
			s.Retries += r.Retries
		}
	}
	return s
}
