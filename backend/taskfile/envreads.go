package taskfile

import (
	"maps"
	"slices"

	"observatory/backend/oracle"
)

// EnvVar is one environment variable a task file reads, as `task check` and `run` list
// them before anything is sent.
type EnvVar struct {
	Name string `json:"name"`
	// Fields are where the file reads it ("base_url", "plan[2].value_env").
	Fields []string `json:"fields"`
	// AtLoad means it is read as the file loads (base_url, SQLite paths), not only when an
	// attempt starts.
	AtLoad bool `json:"at_load,omitempty"`
	// Secret means its name looks like a credential's: no pattern allows it, only its name.
	Secret bool `json:"secret,omitempty"`
	// Allowed means the user allowed the task to read it.
	Allowed bool `json:"allowed,omitempty"`
}

// envReads lists the environment variables doc reads, in the order the file names them,
// each with the fields that read it and whether trust allows it. Malformed references are
// left for the builder to refuse where they are.
func envReads(doc *Document, trust Trust) []EnvVar {
	byName := map[string]*EnvVar{}
	var order []string
	read := func(name, at string, atLoad bool) {
		v, ok := byName[name]
		if !ok {
			v = &EnvVar{Name: name, Secret: SecretEnv(name), Allowed: trust.allowsEnv(name)}
			byName[name] = v
			order = append(order, name)
		}
		v.Fields = append(v.Fields, at)
		v.AtLoad = v.AtLoad || atLoad
	}
	refs := func(s, at string, atLoad bool) {
		names, _ := oracle.EnvRefs(s)
		for _, n := range names {
			read(n, at, atLoad)
		}
	}
	refs(doc.BaseURL, "base_url", true)
	steps := func(list []Step, path string) {
		for i, st := range list {
			if st.ValueEnv != "" {
				read(st.ValueEnv, join(index(path, i), "value_env"), false)
			}
		}
	}
	conditions := func(list []Condition, path string) {
		for i, c := range list {
			at := index(path, i)
			if c.HTTP != nil {
				for _, h := range slices.Sorted(maps.Keys(c.HTTP.Headers)) {
					refs(c.HTTP.Headers[h], join(join(join(at, "http"), "headers"), h), false)
				}
			}
			if c.SQL != nil {
				refs(c.SQL.Path, join(join(at, "sql"), "path"), true)
				if c.SQL.DSNEnv != "" {
					read(c.SQL.DSNEnv, join(join(at, "sql"), "dsn_env"), false)
				}
			}
		}
	}
	if doc.Session != nil {
		steps(doc.Session.Setup, "session.setup")
	}
	steps(doc.Plan, "plan")
	models := func(list []ModelSpec, path string) {
		for i, m := range list {
			if m.APIKeyEnv != "" { // a key sent to the model's server, which the file names
				read(m.APIKeyEnv, join(index(path, i), "api_key_env"), false)
			}
		}
	}
	if doc.Planner != nil {
		models(doc.Planner.Models, "planner.models")
	}
	for i, sg := range doc.Signals {
		if sg.Judge != nil {
			models(sg.Judge.Models, join(join(index("signals", i), "judge"), "models"))
		}
	}
	conditions(doc.Success, "success")
	if doc.Truth != nil {
		conditions(doc.Truth.Conditions, "truth")
	}
	out := make([]EnvVar, len(order))
	for i, n := range order {
		out[i] = *byName[n]
	}
	return out
}

// refusedNames are the names of the variables in vars the user has not allowed.
func refusedNames(vars []EnvVar) []string {
	var out []string
	for _, v := range vars {
		if !v.Allowed {
			out = append(out, v.Name)
		}
	}
	return out
}
