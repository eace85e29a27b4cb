package outside

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Inherit says which of Observatory's environment variables the agent process inherits
// besides the OBSERVATORY_* ones it is handed: all of them, unless Only is set, when it
// inherits only those Names names (a name, or a pattern with *, such as LC_*).
type Inherit struct {
	Only  bool
	Names []string
}

// Check refuses a name that is not a variable's name or a pattern of one.
func (in Inherit) Check() error {
	for _, n := range in.Names {
		if n == "" || strings.ContainsAny(n, "= \t") {
			return fmt.Errorf("--agent-env %q: want a variable's name, or a pattern with * (LC_*)", n)
		}
		if _, err := path.Match(n, ""); err != nil {
			return fmt.Errorf("--agent-env %q: %v", n, err)
		}
	}
	return nil
}

// environment is what the agent process starts with: the part of environ ("NAME=value"
// entries, Observatory's own) that in lets it inherit, then handed, which win over them.
func (in Inherit) environment(environ, handed []string) []string {
	kept := environ
	if in.Only {
		kept = slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
			name, _, _ := strings.Cut(kv, "=")
			return !slices.ContainsFunc(in.Names, func(p string) bool {
				ok, _ := path.Match(p, name)
				return ok
			})
		})
	}
	return append(kept, handed...)
}
