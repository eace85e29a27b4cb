package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"observatory/backend/agent"
)

// Bounds on what an answer may hold, so evidence stays small.
const (
	// MaxBody is the most of an HTTP body (or of its pick) an answer keeps by default; more
	// cannot confirm. A condition may set its own bound (HTTP.WithEvidence).
	MaxBody = 16 << 10
	// maxResponse is the most of a response read, for the conditions to pick from.
	maxResponse = 4 << 20
	// MaxRows is the most rows an SQL answer keeps; a query returning more cannot confirm.
	MaxRows = 100
	// maxRowBytes bounds an SQL answer's rows as JSON.
	maxRowBytes = 64 << 10
)

// Mask replaces a secret wherever an answer would show it: the mask every record uses.
const Mask = agent.Mask

// decodeJSON decodes one JSON value into plain values for CEL: objects as map[string]any,
// arrays as []any, integers that fit int64 as int64, other numbers as float64.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the JSON value")
	}
	return plain(v), nil
}

// plain replaces json.Numbers in v by int64 or float64.
func plain(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = plain(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = plain(x[k])
		}
	}
	return v
}

// secretMember matches the names of JSON members whose values are credentials, as a cloud
// metadata service or a token endpoint answers them (SecretAccessKey, access_token,
// client_secret, password…).
var secretMember = regexp.MustCompile(`(?i)secret|token|passw|credential|private.?key|access.?key|api.?key`)

// redact returns v with every secret replaced by Mask in its strings (and map keys), and
// the values of members whose names look secret replaced by Mask whole.
func redact(v any, secrets []string) any {
	switch x := v.(type) {
	case string:
		return redactString(x, secrets)
	case []any:
		for i := range x {
			x[i] = redact(x[i], secrets)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if secretMember.MatchString(k) && e != nil {
				e = Mask
			}
			out[redactString(k, secrets)] = redact(e, secrets)
		}
		return out
	}
	return v
}

func redactString(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, Mask)
		}
	}
	return s
}

// encode is an answer as JSON.
func encode(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("the answer cannot be recorded as JSON: %w", err)
	}
	return b, nil
}
