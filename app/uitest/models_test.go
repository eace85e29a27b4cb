package uitest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestSettingsModels adds a model in the settings panel, tests it against a one-answer
// OpenAI-compatible server through the real backend, refuses to save a key variable that is
// not a key's, and keeps axe-core at zero violations with the Models section open.
func TestSettingsModels(t *testing.T) {
	chat := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-ui", "object": "chat.completion", "created": 1, "model": "tiny",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": map[string]any{"role": "assistant", "content": "Hello from tiny.",
				"tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "done", "arguments": "{}"}}}}}},
			"usage": map[string]any{"prompt_tokens": 40, "completion_tokens": 4, "total_tokens": 44}})
	}))
	t.Cleanup(chat.Close)

	page := openPage(t, newServer(t))
	must(t, "open the settings", button(page, "Settings").Click())
	must(t, "add a model", button(page, "Add model").Click())
	must(t, "name the model", page.GetByLabel("Model 1", playwright.PageGetByLabelOptions{Exact: playwright.Bool(true)}).Fill("tiny"))
	must(t, "give its base URL", page.GetByLabel("Base URL of model 1").Fill(chat.URL+"/v1"))
	must(t, "send no key", page.GetByLabel("Key variable of model 1").Fill(""))
	must(t, "test it", button(page, "Test model 1").Click())
	expectContains(t, page.GetByTestId("model-test-1"), "Hello from tiny. · done({})")
	checkA11y(t, page, "the settings' models")

	must(t, "name a variable that is not a key's", page.GetByLabel("Key variable of model 1").Fill("HOME"))
	must(t, "save", button(page, "Save").Click())
	must(t, "see the refusal", expect.Locator(page.GetByText("_API_KEY or _TOKEN").First()).ToBeVisible())
}
