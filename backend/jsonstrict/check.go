package jsonstrict

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// MaxDepth is the deepest nesting of objects and arrays Check accepts. Observatory's own
// files nest fewer than ten levels; the limit only stops a document built to exhaust a
// reader.
const MaxDepth = 64

// container is one open object or array while walking the token stream.
type container struct {
	path   string
	object bool
	keys   map[string]bool // object: the keys seen so far, unescaped
	key    string          // object: the key whose value comes next
	inKey  bool            // object: the next token is a key
	next   int             // array: the index of the next element
}

// Check reads data as exactly one JSON value and refuses it with an *Error if it is not
// JSON, if anything but white space follows the value, if an object anywhere names a member
// twice (keys compared after unescaping), or if objects and arrays nest deeper than MaxDepth.
func Check(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*container
	started := false
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		switch {
		case started && len(stack) == 0 && errors.Is(err, io.EOF):
			return nil
		case started && len(stack) == 0:
			return refuse("", "trailing data after the JSON value, at byte %d", before)
		case errors.Is(err, io.EOF) && !started:
			return refuse("", "not JSON: the document is empty")
		case errors.Is(err, io.EOF):
			return refuse(where(stack), "not JSON: the document ends early (is it truncated?)")
		case err != nil:
			return refuse(where(stack), "not JSON: %v", err)
		}
		started = true
		var top *container
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.inKey && tok != json.Delim('}') {
			// Where a key belongs, the decoder returns a string or fails.
			if err := top.addKey(tok.(string), data[before:dec.InputOffset()]); err != nil {
				return err
			}
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			path := valuePath(top)
			if len(stack) == MaxDepth {
				return refuse(path, "nested more than %d levels deep", MaxDepth)
			}
			c := &container{path: path, object: tok == json.Delim('{')}
			if c.object {
				c.keys, c.inKey = map[string]bool{}, true
			}
			stack = append(stack, c)
		case json.Delim('}'), json.Delim(']'):
			stack = closeValue(stack[:len(stack)-1])
		default:
			stack = closeValue(stack)
		}
	}
}

// addKey records key, read from raw (its spelling in the document, with the separators
// before it), refusing one the object already has.
func (c *container) addKey(key string, raw []byte) *Error {
	path := child(c.path, key)
	if c.keys[key] {
		spelled := string(bytes.TrimLeft(raw, " \t\r\n,"))
		if spelled != `"`+key+`"` {
			return refuse(path, "duplicate key %q (spelled %s here): an object names each member once", key, spelled)
		}
		return refuse(path, "duplicate key %q: an object names each member once", key)
	}
	c.keys[key] = true
	c.key, c.inKey = key, false
	return nil
}

// closeValue notes that a value of the innermost open container, if any, is complete.
func closeValue(stack []*container) []*container {
	if len(stack) == 0 {
		return stack
	}
	top := stack[len(stack)-1]
	if top.object {
		top.inKey = true
	} else {
		top.next++
	}
	return stack
}

// valuePath is the path of the value about to be read inside top (nil: the document).
func valuePath(top *container) string {
	switch {
	case top == nil:
		return ""
	case top.object:
		return child(top.path, top.key)
	}
	return index(top.path, top.next)
}

// where is the path of the innermost open container, for a syntax error inside it.
func where(stack []*container) string {
	if len(stack) == 0 {
		return ""
	}
	return stack[len(stack)-1].path
}
