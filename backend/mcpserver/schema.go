package mcpserver

import (
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// enums are the values a tool's arguments take, by path: "button" is an argument,
// "modifiers[]" its items, "fields[].type" a member of its items. They are Playwright MCP's
// own, so every value valid there is valid here.
type enums map[string][]any

// inputSchema is the schema of a tool's arguments In, with its enums.
func inputSchema[In any](e enums) (*jsonschema.Schema, error) {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, err
	}
	for path, values := range e {
		at := s
		for part := range strings.SplitSeq(path, ".") {
			items := strings.HasSuffix(part, "[]")
			at = at.Properties[strings.TrimSuffix(part, "[]")]
			if at != nil && items {
				at = at.Items
			}
			if at == nil {
				return nil, fmt.Errorf("no argument %s to give values", path)
			}
		}
		at.Enum = values
	}
	return s, nil
}

// The enums of Playwright MCP's arguments.
var (
	clickEnums      = enums{"button": {"left", "right", "middle"}, "modifiers[]": {"Alt", "Control", "ControlOrMeta", "Meta", "Shift"}}
	fillEnums       = enums{"fields[].type": {"textbox", "checkbox", "radio", "combobox", "slider"}}
	screenshotEnums = enums{"type": {"png", "jpeg", "webp"}, "scale": {"css", "device"}}
	tabsEnums       = enums{"action": {"list", "new", "close", "select"}}
	consoleEnums    = enums{"level": {"error", "warning", "info", "debug"}}
	requestEnums    = enums{"part": {"request-headers", "request-body", "response-headers", "response-body"}}
	emulateEnums    = enums{"colorScheme": {"light", "dark", nil}, "reducedMotion": {"reduce", "no-preference", nil},
		"forcedColors": {"active", "none", nil}, "contrast": {"more", "no-preference", nil}, "media": {"screen", "print", nil}}
)
