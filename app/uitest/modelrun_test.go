package uitest

import (
	"strings"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/planner/model/providertest"
)

// Cells of a model-planned attempts table: the agent's claim, the last signal, comes before the gate.
const (
	colModelClaim = colGate
	colModelGate  = colGate + 1
	colModelEnd   = colTerminal + 1
)

// TestAModelPlansARunInTheWindow configures a model (a scripted OpenAI-compatible server)
// in Settings with its prices, and runs "Saves normally" with it from the window. The model
// first refuses (429), so the live note says the attempt waits for a model; the model's next
// answer is held until the test has seen the note, which clears once the model answers. The
// finished attempt's row shows the agent's claim (the model's) beside the gate, and the trace shows each
// turn's reason, tool call, tokens, latency and cost, and on the verify step the claim beside
// the gate's call.
func TestAModelPlansARunInTheWindow(t *testing.T) {
	api := providertest.OpenAI
	release := make(chan struct{})
	held := api.Call("call_1", "click", `{"target":{"role":"button","name":"Reserve slot"},"reason":"Open the reservation dialog."}`)
	held.Hold = release
	fake := providertest.New(t, api, api.Fail(429, "rate limited: slow down"), held,
		api.Call("call_2", "fill", `{"target":{"role":"textbox","name":"Reservation title"},"value":"Spectral scan","reason":"Title it as asked."}`),
		api.Call("call_3", "select", `{"target":{"role":"combobox","name":"Room"},"value":"North lab","reason":"The room asked for."}`),
		api.Call("call_4", "click", `{"target":{"role":"button","name":"Save reservation"},"reason":"Save the reservation."}`),
		api.Call("call_5", "done", `{"reason":"The reservation should be saved."}`))
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release) // a failed test must not leave the request held
		}
	})

	page := openPage(t, newServer(t))
	must(t, "open the settings", button(page, "Settings").Click())
	_, err := page.GetByLabel("Runs started here are planned by").SelectOption(playwright.SelectOptionValues{Values: &[]string{"model"}})
	must(t, "plan with a model", err)
	must(t, "add a model", button(page, "Add model").Click())
	must(t, "name the model", page.GetByLabel("Model 1", playwright.PageGetByLabelOptions{Exact: playwright.Bool(true)}).Fill("scripted"))
	must(t, "give its base URL", page.GetByLabel("Base URL of model 1").Fill(fake.BaseURL()))
	must(t, "send no key", page.GetByLabel("Key variable of model 1").Fill(""))
	must(t, "price its input", page.GetByLabel("Input price of model 1 ($ per million tokens)").Fill("2"))
	must(t, "price its output", page.GetByLabel("Output price of model 1 ($ per million tokens)").Fill("8"))
	must(t, "save", button(page, "Save").Click())
	must(t, "close the settings", button(page, "Settings").Click())

	r := row(page, "Saves normally")
	must(t, "run Saves normally", button(page, "Run Saves normally").Click())
	note := page.Locator(".model-wait")
	must(t, "the window says it waits for a model", expect.Locator(note).ToContainText("Saves normally: waiting for a model: openai:scripted: refused (HTTP 429): rate limited",
		playwright.LocatorAssertionsToContainTextOptions{Timeout: playwright.Float(runTimeout)}))
	checkA11y(t, page, "the waiting note")
	close(release)
	must(t, "the note clears once the model answers", expect.Locator(note.Locator("p")).ToHaveCount(0,
		playwright.LocatorAssertionsToHaveCountOptions{Timeout: playwright.Float(runTimeout)}))

	header := page.GetByRole("columnheader", playwright.PageGetByRoleOptions{Name: "Agent's claim"})
	must(t, "the table gains the agent's claim", expect.Locator(header).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{Timeout: playwright.Float(runTimeout)}))
	must(t, "Saves normally completes", expect.Locator(cell(r, colModelEnd)).ToHaveText("completed",
		playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(runTimeout)}))
	expectText(t, cell(r, colModelClaim), "done")
	expectText(t, cell(r, colModelGate), "done")

	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
	press(t, page, "Home", "Step 1 of 5: click button[Reserve slot]")
	must(t, "open the Model tab", trace.GetByRole("tab", playwright.LocatorGetByRoleOptions{Name: "Model"}).Click())
	turn := trace.GetByTestId("model-turn-0")
	expectContains(t, trace, "Reason: Open the reservation dialog.")
	expectContains(t, turn, `click({"target":{"role":"button","name":"Reserve slot"},"reason":"Open the reservation dialog."}) proposed`)
	heading := turn.GetByRole("heading")
	for _, want := range []string{"openai:scripted", " ms · tokens in 120 / out 30", "$0.0005", "saw observation 1"} {
		expectContains(t, heading, want)
	}
	expectContains(t, turn, "every model refused (openai:scripted: refused (HTTP 429): rate limited: slow down); waited 5s")
	if text, err := turn.TextContent(); err == nil && strings.Count(text, "every model refused") != 1 {
		t.Errorf("the wait is noted %d times, want once: %s", strings.Count(text, "every model refused"), text)
	}
	checkA11y(t, page, "a model turn")

	for range 4 { // the arrow keys now move between the tabs
		must(t, "go to the next step", button(page, "Next step").Click())
	}
	expectText(t, page.GetByTestId("step-heading"), "Step 5 of 5: model says done")
	expectText(t, trace.GetByTestId("model-claim"), "model said done · gate: done")
	expectContains(t, trace.GetByTestId("model-turn-0"), "done(")
}
