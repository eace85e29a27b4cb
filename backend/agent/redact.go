package agent

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// secretHeaders are the headers whose values are credentials whatever the page.
var secretHeaders = []string{"authorization", "proxy-authorization", "proxy-authenticate", "cookie", "set-cookie"}

// secretName matches the names of query parameters, form fields, JSON members and headers
// whose values look like credentials.
var secretName = regexp.MustCompile(`(?i)token|secret|passw|pwd|key|auth|session|credential|cookie`)

// Redact returns t with secrets masked: the values of credential headers
// (Authorization, Cookie, Set-Cookie, the proxy's) and of headers, query parameters, form
// fields and JSON members whose names look like a token, key, secret or password; and every
// given secret value (what secret actions typed, the task's declared secrets) wherever it
// appears. t itself is not changed.
func (t Traffic) Redact(secrets []string) Traffic {
	hide := func(v string) string { return maskSecrets(v, secrets) }
	t.Requests = slices.Clone(t.Requests)
	for i, r := range t.Requests {
		r.URL = hide(redactURL(r.URL))
		r.Failure = hide(r.Failure)
		r.RequestHeaders = redactHeaders(r.RequestHeaders, secrets)
		r.ResponseHeaders = redactHeaders(r.ResponseHeaders, secrets)
		r.RequestBody = redactBody(r.RequestBody, secrets)
		r.ResponseBody = redactBody(r.ResponseBody, secrets)
		t.Requests[i] = r
	}
	t.Console = slices.Clone(t.Console)
	for i, m := range t.Console {
		m.Text, m.Location = hide(m.Text), hide(redactURL(m.Location))
		t.Console[i] = m
	}
	t.Errors = slices.Clone(t.Errors)
	for i, e := range t.Errors {
		e.Message, e.Stack = hide(e.Message), hide(e.Stack)
		t.Errors[i] = e
	}
	return t
}

// redactHeaders masks credential headers' values and every secret value in the rest.
func redactHeaders(hs []Header, secrets []string) []Header {
	hs = slices.Clone(hs)
	for i, h := range hs {
		if slices.Contains(secretHeaders, strings.ToLower(h.Name)) || secretName.MatchString(h.Name) {
			hs[i].Value = Mask
			continue
		}
		hs[i].Value = maskSecrets(h.Value, secrets)
	}
	return hs
}

// redactURL masks the values of the query parameters whose names look secret.
func redactURL(raw string) string {
	base, query, ok := strings.Cut(raw, "?")
	if !ok {
		return raw
	}
	query, frag, hasFrag := strings.Cut(query, "#")
	out := base + "?" + redactForm(query)
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// redactForm masks, in a URL-encoded form (a=1&b=2), the values of the fields whose names
// look secret. Everything else is left as it was written.
func redactForm(form string) string {
	parts := strings.Split(form, "&")
	for i, p := range parts {
		name, _, ok := strings.Cut(p, "=")
		if ok && secretName.MatchString(name) {
			parts[i] = name + "=" + Mask
		}
	}
	return strings.Join(parts, "&")
}

// redactBody masks secret-named form fields or JSON members, and every secret value.
func redactBody(b *Body, secrets []string) *Body {
	if b == nil {
		return nil
	}
	out := *b
	switch {
	case strings.Contains(out.MimeType, "x-www-form-urlencoded"):
		out.Text = redactForm(out.Text)
	case strings.Contains(out.MimeType, "json"):
		out.Text = redactJSON(out.Text)
	}
	out.Text = maskSecrets(out.Text, secrets)
	return &out
}

// redactJSON masks the values of the members whose names look secret, at any depth. Text
// that is not whole JSON (a truncated body) is left to the secret values' masking.
func redactJSON(text string) string {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return text
	}
	changed := false
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if secretName.MatchString(k) {
					x[k], changed = Mask, true
				} else {
					x[k] = walk(e)
				}
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	v = walk(v)
	if !changed {
		return text
	}
	out, err := json.Marshal(v)
	if err != nil {
		return text
	}
	return string(out)
}
