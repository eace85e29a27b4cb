package taskfile

import (
	"regexp"
	"slices"
	"strings"
)

// Planning is who plans a task's attempts: the scripted plan, or a model. A task with no
// plan is planned by a model.
type Planning struct {
	// Kind is "script" or "model"; empty means a model when there is no plan.
	Kind string `json:"kind,omitempty"`
	// Models are tried in order; rate limits, quota and refusals rotate to the next.
	Models []ModelSpec `json:"models,omitempty"`
	// Persistent refuses the model's done: planning goes on until a limit ends it.
	Persistent bool `json:"persistent,omitempty"`
	// Vision shows the model each observation's screenshot.
	Vision bool `json:"vision,omitempty"`
	// TimeLimitMS bounds planning an attempt; the model is told the time left.
	TimeLimitMS int `json:"time_limit_ms,omitempty"`
}

// ModelSpec is one model a task may be planned by. Its key is read from the OS keyring entry
// APIKeyKeyring, or else the environment variable APIKeyEnv, when a run starts; a task file
// names where the key is, never the key. A keyring key goes only to the provider's own
// server (no BaseURL): a file that names its server names an environment variable, which
// the user allows by name.
type ModelSpec struct {
	Provider      string `json:"provider"`
	Model         string `json:"model"`
	BaseURL       string `json:"base_url,omitempty"`
	APIKeyEnv     string `json:"api_key_env,omitempty"`
	APIKeyKeyring string `json:"api_key_keyring,omitempty"`
	// PriceInPerMTok and PriceOutPerMTok are US dollars per million input and output tokens,
	// which a money budget is counted in; 0 counts the model's tokens as free.
	PriceInPerMTok  float64 `json:"price_in_per_mtok,omitempty"`
	PriceOutPerMTok float64 `json:"price_out_per_mtok,omitempty"`
}

// keyringEntry is a plain keyring entry name ("openai").
var keyringEntry = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// UsesModel reports whether a model plans the task.
func (p Planning) UsesModel(hasPlan bool) bool {
	return p.Kind == "model" || (p.Kind == "" && !hasPlan)
}

// planning checks the planner field.
func (b *builder) planning(doc *Document) error {
	if doc.Planner == nil {
		return nil
	}
	p := *doc.Planner
	switch p.Kind {
	case "", "script", "model":
	default:
		return errAt("planner.kind", "want script or model, got %q", p.Kind)
	}
	if p.Kind == "script" && len(doc.Plan) == 0 {
		return errAt("planner.kind", "a scripted planner needs a plan")
	}
	if p.TimeLimitMS < 0 {
		return errAt("planner.time_limit_ms", "want 0 (the default) or more")
	}
	if err := checkModels("planner.models", p.Models); err != nil {
		return err
	}
	if p.UsesModel(len(doc.Plan) > 0) && len(p.Models) == 0 {
		return errAt("planner.models", "a model plans this task: name at least one, or give --model when running it")
	}
	b.s.planning = p
	return nil
}

// checkModels checks the models a planner or a judge at path names: where each is and where
// its key is, never the key.
func checkModels(at string, models []ModelSpec) error {
	for i, m := range models {
		path := index(at, i)
		switch {
		case m.Provider != "openai" && m.Provider != "anthropic":
			return errAt(path+".provider", "want openai (or any OpenAI-compatible server, with base_url) or anthropic, got %q", m.Provider)
		case m.Model == "":
			return errAt(path+".model", "name the model")
		case m.APIKeyEnv != "" && !envName(m.APIKeyEnv):
			return errAt(path+".api_key_env", "want the name of an environment variable, such as OPENAI_API_KEY, never the key itself")
		case m.APIKeyKeyring != "" && m.APIKeyEnv != "":
			return errAt(path+".api_key_keyring", "give the key's keyring entry or its environment variable (api_key_env), not both")
		case m.APIKeyKeyring != "" && !keyringEntry.MatchString(m.APIKeyKeyring):
			return errAt(path+".api_key_keyring", "want the name of an OS keyring entry, such as openai, never the key itself")
		case m.APIKeyKeyring != "" && m.BaseURL != "":
			// The file names the server: the user's stored key must not go wherever it says.
			return errAt(path+".api_key_keyring", "a key from the keyring goes only to its provider's own server; for the server this file names (base_url), give api_key_env, which is read only once you allow it")
		case m.PriceInPerMTok < 0 || m.PriceOutPerMTok < 0:
			return errAt(path, "prices per million tokens cannot be negative")
		}
		if m.BaseURL != "" {
			if _, err := absoluteHTTP(m.BaseURL); err != nil {
				return errAt(path+".base_url", "%v", err)
			}
		}
	}
	return nil
}

// Planning is who plans the task's attempts, as the task file says.
func (s *suite) Planning() Planning { return s.planning }

// AgentSection is a task's own agent process (see docs/outside-agent.md): the program and
// its arguments, run in the task file's folder for each attempt when the user runs the task
// with --agent.
type AgentSection struct {
	Command []string `json:"command"`
}

// agentSection checks the agent field.
func (b *builder) agentSection(doc *Document) error {
	if doc.Agent == nil {
		return nil
	}
	if len(doc.Agent.Command) == 0 {
		return errAt("agent.command", "name the program to run and its arguments, such as [node, agent.js]")
	}
	for i, arg := range doc.Agent.Command {
		if arg == "" || strings.ContainsRune(arg, 0) {
			return errAt(index("agent.command", i), "an argument cannot be empty or hold a NUL")
		}
	}
	b.s.agentCommand = slices.Clone(doc.Agent.Command)
	return nil
}

// Agent is the task's own agent command and the folder it runs in (the task file's); no
// command when the task names none. It runs only when the user asks (run --agent).
func (s *suite) Agent() (command []string, dir string) { return slices.Clone(s.agentCommand), s.dir }
