package mcpserver

import (
	"encoding/json"
	"regexp"
	"strings"
)

// A line of Playwright's accessibility snapshot is a YAML item, "- KEY" or "- KEY: VALUE",
// whose key is the element: its role, its accessible name in double quotes, then attributes
// in brackets, among them its ref ("button \"Save\" [ref=e5]"). A key YAML would misread (a
// name holding ": " or " #") is written in single quotes, a quote in it doubled. What follows
// the key is text the page shows, never an element: "- text: see [ref=e5]" is words on the
// page, not e5.

// snapshotKey reads a key: its role, its quoted name if any, and its attributes.
var snapshotKey = regexp.MustCompile(`^([a-zA-Z]+)(?: ("(?:[^"\\]|\\.)*"))?((?: \[[a-zA-Z]+(?:=[^\]\s]*)?\])*)$`)

// refAttr finds the ref among a key's attributes.
var refAttr = regexp.MustCompile(`\[ref=([a-z0-9]+)\]`)

// snapLine is one line of a snapshot as read: the element its key names and its ref (empty
// for a line that carries none, such as text), and the text after its key.
type snapLine struct {
	el    element
	ref   string
	value string
}

// readLine reads one snapshot line; false for a line that is no YAML item.
func readLine(line string) (snapLine, bool) {
	item, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
	if !ok {
		return snapLine{}, false
	}
	key, value := splitKey(item)
	m := snapshotKey.FindStringSubmatch(key)
	if m == nil {
		return snapLine{value: value}, true
	}
	l := snapLine{el: element{Role: m[1]}, value: value}
	if m[2] != "" {
		if err := json.Unmarshal([]byte(m[2]), &l.el.Name); err != nil {
			l.el.Name = strings.Trim(m[2], `"`)
		}
	}
	if r := refAttr.FindStringSubmatch(m[3]); r != nil {
		l.ref = r[1]
	}
	return l, true
}

// splitKey splits a YAML item into its key, unquoted, and the text after it.
func splitKey(item string) (key, value string) {
	if rest, ok := strings.CutPrefix(item, "'"); ok {
		var b strings.Builder
		for i := 0; i < len(rest); i++ {
			if rest[i] != '\'' {
				b.WriteByte(rest[i])
				continue
			}
			if i+1 < len(rest) && rest[i+1] == '\'' { // a doubled quote is one
				b.WriteByte('\'')
				i++
				continue
			}
			return b.String(), trimValue(rest[i+1:])
		}
		return "", "" // an unterminated quote names nothing
	}
	if k, v, ok := strings.Cut(item, ": "); ok {
		return k, trimValue(": " + v)
	}
	return strings.TrimSuffix(item, ":"), ""
}

// trimValue is the text after a key (": text"), its YAML quotes taken off.
func trimValue(after string) string {
	v, _ := strings.CutPrefix(after, ":")
	return strings.Trim(strings.TrimSpace(v), `"'`)
}
