package model

import (
	"context"
	"encoding/base64"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// anthropicProvider speaks Anthropic messages with tool_use, non-streaming, through the
// official SDK.
type anthropicProvider struct {
	client anthropic.Client
	model  string
	key    string
}

// newAnthropic builds a client from m alone: no ANTHROPIC_* variable, profile or other
// credential is read from the environment (New resolves ANTHROPIC_BASE_URL into m, as the SDK
// would), and the SDK's own retries are off; the planner retries and rotates itself.
func newAnthropic(m ModelConfig, key string) *anthropicProvider {
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithHTTPClient(httpClient()), option.WithMaxRetries(0)}
	if m.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(m.BaseURL))
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	}
	return &anthropicProvider{client: anthropic.NewClient(opts...), model: m.Model, key: key}
}

func (p *anthropicProvider) complete(ctx context.Context, req request) (response, error) {
	params := anthropic.MessageNewParams{
		Model:      p.model,
		MaxTokens:  int64(req.MaxTokens),
		System:     []anthropic.TextBlockParam{{Text: req.System}},
		Messages:   anthropicMessages(req.Messages),
		Tools:      anthropicTools(req.Tools),
		ToolChoice: anthropic.ToolChoiceUnionParam{OfAuto: &anthropic.ToolChoiceAutoParam{DisableParallelToolUse: anthropic.Bool(true)}},
	}
	res, err := p.client.Messages.New(ctx, params)
	if err != nil {
		return response{}, sdkError(err, func(e *anthropic.Error) (int, string, *http.Response) {
			return e.StatusCode, e.Message, e.Response
		}, p.key)
	}
	out := response{InTokens: res.Usage.InputTokens, OutTokens: res.Usage.OutputTokens}
	for _, b := range res.Content {
		switch b.Type {
		case "text":
			if out.Text != "" {
				out.Text += "\n"
			}
			out.Text += b.Text
		case "tool_use":
			out.Calls = append(out.Calls, toolCall{ID: b.ID, Name: b.Name, Args: string(b.Input)})
		}
	}
	if res.StopReason == anthropic.StopReasonRefusal {
		out.Refusal = res.StopDetails.Explanation
		if out.Refusal == "" {
			out.Refusal = "the model refused (stop_reason refusal)"
		}
	}
	return out, nil
}

// anthropicMessages translates the conversation. Messages of the same role in a row become
// one (the intent and the first observation, or a compaction's summary), and in a user
// message the tool results come first, as the API requires.
func anthropicMessages(msgs []message) []anthropic.MessageParam {
	type turn struct {
		role   role
		blocks []anthropic.ContentBlockParamUnion
	}
	var turns []turn
	for _, m := range msgs {
		var blocks []anthropic.ContentBlockParamUnion
		for _, r := range m.Results {
			blocks = append(blocks, anthropic.NewToolResultBlock(r.CallID, r.Content, r.IsError))
		}
		if m.Text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(m.Text))
		}
		if m.Image != nil {
			blocks = append(blocks, anthropic.NewImageBlockBase64(m.Image.MediaType, base64.StdEncoding.EncodeToString(m.Image.Data)))
		}
		for _, c := range m.Calls {
			blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, objectArgs(c.Args), c.Name))
		}
		switch n := len(turns); {
		case len(blocks) == 0:
		case n > 0 && turns[n-1].role == m.Role:
			turns[n-1].blocks = append(turns[n-1].blocks, blocks...)
		default:
			turns = append(turns, turn{m.Role, blocks})
		}
	}
	out := make([]anthropic.MessageParam, len(turns))
	for i, t := range turns {
		if t.role == roleAssistant {
			out[i] = anthropic.NewAssistantMessage(t.blocks...)
		} else {
			out[i] = anthropic.NewUserMessage(t.blocks...)
		}
	}
	return out
}

func anthropicTools(ts []tool) []anthropic.ToolUnionParam {
	out := make([]anthropic.ToolUnionParam, len(ts))
	for i, t := range ts {
		out[i] = anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name:        t.Name,
			Description: anthropic.String(t.Description),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: t.Params["properties"], Required: t.Params["required"].([]string),
				ExtraFields: map[string]any{"additionalProperties": false}},
		}}
	}
	return out
}
