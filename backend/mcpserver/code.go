package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// playwrightCode is the Playwright code equivalent to an action, as Playwright MCP shows it
// under "### Ran Playwright code", so that a session can become a script. A secret value is
// the recorded action's mask, never the value.
func playwrightCode(a agent.Action) string {
	switch a.Kind {
	case agent.ActNavigate:
		return fmt.Sprintf("await page.goto(%s);", js(a.Value))
	case agent.ActVerify:
		return "// task_done: the completion gate is asked; nothing runs on the page"
	case agent.ActPress:
		if a.Target.IsZero() {
			return fmt.Sprintf("await page.keyboard.press(%s);", js(a.Value))
		}
	case agent.ActResize:
		var w, h int
		_, _ = fmt.Sscanf(a.Value, "%dx%d", &w, &h)
		return fmt.Sprintf("await page.setViewportSize({ width: %d, height: %d });", w, h)
	case agent.ActDialogAccept:
		if a.Value != "" {
			return fmt.Sprintf("// the dialog is accepted with %s", js(a.Value))
		}
		return "// the dialog is accepted"
	case agent.ActTabNew:
		if a.Value == "" {
			return "const page = await context.newPage();"
		}
		return fmt.Sprintf("const page = await context.newPage();\nawait page.goto(%s);", js(a.Value))
	case agent.ActTabSelect:
		return fmt.Sprintf("page = context.pages()[%s]; await page.bringToFront();", a.Value)
	case agent.ActTabClose:
		if a.Value == "" {
			return "await page.close();"
		}
		return fmt.Sprintf("await context.pages()[%s].close();", a.Value)
	case agent.ActClose:
		return "await page.close();"
	case agent.ActDialogDismiss:
		return "// the dialog is dismissed"
	case agent.ActEvaluate:
		if a.Target.IsZero() {
			return fmt.Sprintf("await page.evaluate(%s);", js(a.Value))
		}
		return fmt.Sprintf("await %s.evaluate(%s);", locator(a.Target), js(a.Value))
	}
	loc := locator(a.Target)
	switch a.Kind {
	case agent.ActClick, agent.ActSubmit:
		return "await " + loc + ".click();"
	case agent.ActFill:
		return fmt.Sprintf("await %s.fill(%s);", loc, js(a.Value))
	case agent.ActSelect:
		return fmt.Sprintf("await %s.selectOption(%s);", loc, js(a.Value))
	case agent.ActCheck:
		return "await " + loc + ".check();"
	case agent.ActUncheck:
		return "await " + loc + ".uncheck();"
	case agent.ActPress:
		return fmt.Sprintf("await %s.press(%s);", loc, js(a.Value))
	case agent.ActHover:
		return "await " + loc + ".hover();"
	case agent.ActDrag:
		if a.To != nil {
			return fmt.Sprintf("await %s.dragTo(%s);", loc, locator(*a.To))
		}
	case agent.ActUpload:
		return fmt.Sprintf("await %s.setInputFiles(%s);", loc, js(a.Value))
	case agent.ActWaitFor:
		return "await " + loc + ".waitFor();"
	}
	return fmt.Sprintf("// %s %s", a.Kind, a.Target)
}

// locator is Playwright's locator for a target: by role and exact name, else by selector.
func locator(t agent.Target) string {
	if t.Role != "" {
		if t.Name == "" {
			return fmt.Sprintf("page.getByRole(%s)", js(t.Role))
		}
		return fmt.Sprintf("page.getByRole(%s, { name: %s, exact: true })", js(t.Role), js(t.Name))
	}
	kind, text := t.Locator()
	switch kind {
	case "css":
		return fmt.Sprintf("page.locator(%s)", js(text))
	case "text":
		return fmt.Sprintf("page.getByText(%s)", js(text))
	case "label":
		return fmt.Sprintf("page.getByLabel(%s)", js(text))
	case "placeholder":
		return fmt.Sprintf("page.getByPlaceholder(%s)", js(text))
	case "test_id":
		return fmt.Sprintf("page.getByTestId(%s)", js(text))
	}
	return fmt.Sprintf("page.locator(%s)", js(text))
}

// js is s as a JavaScript string literal (JSON's, with <, > and & as they are).
func js(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
