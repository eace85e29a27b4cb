package model

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// openaiProvider speaks OpenAI chat completions with tools, non-streaming, through the
// official SDK: OpenAI and every compatible server.
type openaiProvider struct {
	chat  openai.ChatCompletionService
	model string
	key   string
}

// newOpenAI builds the chat completions service from m alone. It does not use
// openai.NewClient, which reads OPENAI_* variables from the environment: a key or
// organisation meant for one server must never reach another base URL (New resolves
// OPENAI_BASE_URL into m, as the SDK would). The SDK's own retries are off; the planner
// retries and rotates itself.
func newOpenAI(m ModelConfig, key string) *openaiProvider {
	opts := []option.RequestOption{option.WithHTTPClient(httpClient()), option.WithMaxRetries(0)}
	if m.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(m.BaseURL))
	} else {
		opts = append(opts, option.WithEnvironmentProduction())
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	}
	return &openaiProvider{chat: openai.NewChatCompletionService(opts...), model: m.Model, key: key}
}

func (p *openaiProvider) complete(ctx context.Context, req request) (response, error) {
	params := openai.ChatCompletionNewParams{
		Model:               shared.ChatModel(p.model),
		Messages:            openaiMessages(req),
		Tools:               openaiTools(req.Tools),
		ToolChoice:          openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")},
		MaxCompletionTokens: openai.Int(int64(req.MaxTokens)),
	}
	res, err := p.chat.New(ctx, params)
	if err != nil {
		return response{}, sdkError(err, func(e *openai.Error) (int, string, *http.Response) {
			return e.StatusCode, e.Message, e.Response
		}, p.key)
	}
	out := response{InTokens: res.Usage.PromptTokens, OutTokens: res.Usage.CompletionTokens}
	if len(res.Choices) == 0 {
		return out, &providerError{Kind: errTransient, Message: "the response has no choices"}
	}
	ch := res.Choices[0]
	out.Text = ch.Message.Content
	switch {
	case ch.Message.Refusal != "":
		out.Refusal = ch.Message.Refusal
	case ch.FinishReason == "content_filter":
		out.Refusal = "the provider's content filter stopped the reply"
	}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		out.Calls = append(out.Calls, toolCall{ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments})
	}
	return out, nil
}

// openaiMessages translates the conversation: the system prompt first, each result of a
// tool call as its own tool message (errors marked in words, as the API has no flag), then
// the user's text and image.
func openaiMessages(req request) []openai.ChatCompletionMessageParamUnion {
	out := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(req.System)}
	for _, m := range req.Messages {
		switch m.Role {
		case roleAssistant:
			am := openai.ChatCompletionAssistantMessageParam{}
			if m.Text != "" {
				am.Content.OfString = openai.String(m.Text)
			}
			for _, c := range m.Calls {
				am.ToolCalls = append(am.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: c.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Args}}})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &am})
		default:
			for _, r := range m.Results {
				content := r.Content
				if r.IsError {
					content = "Error: " + content
				}
				out = append(out, openai.ToolMessage(content, r.CallID))
			}
			switch {
			case m.Image != nil:
				url := "data:" + m.Image.MediaType + ";base64," + base64.StdEncoding.EncodeToString(m.Image.Data)
				out = append(out, openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
					openai.TextContentPart(m.Text),
					openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: url}),
				}))
			case strings.TrimSpace(m.Text) != "":
				out = append(out, openai.UserMessage(m.Text))
			}
		}
	}
	return out
}

func openaiTools(ts []tool) []openai.ChatCompletionToolUnionParam {
	out := make([]openai.ChatCompletionToolUnionParam, len(ts))
	for i, t := range ts {
		out[i] = openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: openai.String(t.Description), Parameters: shared.FunctionParameters(t.Params)})
	}
	return out
}
