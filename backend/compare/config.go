package compare

import (
	"encoding/json"
	"slices"
)

// Setting is one setting an attempt ran with whose value differs between the two runs: what
// differed in how they were run, beside what differed in how they ended.
type Setting struct {
	Slug string `json:"slug"`
	// Name is the setting's path in the run file: "config.wait", "params.latency_ms",
	// "fault", "viewport.width".
	Name string `json:"name"`
	// A and B are its values as JSON; "" where that run's attempt does not set it.
	A string `json:"a"`
	B string `json:"b"`
}

// settings lists the settings whose values differ between a and b, by name.
func settings(slug string, a, b any) []Setting {
	fa, fb := flat(a), flat(b)
	var out []Setting
	for name, va := range fa {
		if vb := fb[name]; va != vb {
			out = append(out, Setting{Slug: slug, Name: name, A: va, B: vb})
		}
	}
	for name, vb := range fb {
		if _, ok := fa[name]; !ok {
			out = append(out, Setting{Slug: slug, Name: name, B: vb})
		}
	}
	slices.SortFunc(out, func(x, y Setting) int {
		if x.Name < y.Name {
			return -1
		}
		if x.Name > y.Name {
			return 1
		}
		return 0
	})
	return out
}

// flat is v as JSON, each leaf named by its dotted path and written as JSON.
func flat(v any) map[string]string {
	out := map[string]string{}
	data, err := json.Marshal(v)
	if err != nil {
		return out
	}
	var tree any
	if json.Unmarshal(data, &tree) != nil {
		return out
	}
	var walk func(prefix string, t any)
	walk = func(prefix string, t any) {
		if m, ok := t.(map[string]any); ok {
			for k, c := range m {
				name := k
				if prefix != "" {
					name = prefix + "." + k
				}
				walk(name, c)
			}
			return
		}
		leaf, _ := json.Marshal(t)
		out[prefix] = string(leaf)
	}
	walk("", tree)
	return out
}

// ranWith is what of an attempt says how it was run, for settings.
type ranWith struct {
	Config any            `json:"config"`
	Fault  string         `json:"fault,omitempty"`
	Params map[string]int `json:"params,omitempty"`
}
