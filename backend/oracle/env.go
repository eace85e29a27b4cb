package oracle

import (
	"fmt"
	"regexp"
	"strings"
)

// envRef matches one ${NAME} reference.
var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// EnvRefs lists the environment variables s refers to as ${NAME}, in order, or says what is
// malformed: a "${" that is not a reference.
func EnvRefs(s string) ([]string, error) {
	rest := envRef.ReplaceAllString(s, "")
	if i := strings.Index(rest, "${"); i >= 0 {
		return nil, fmt.Errorf("%q is not a ${NAME} reference (a name is letters, digits and _)", clip(rest[i:], 20))
	}
	var names []string
	for _, m := range envRef.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	return names, nil
}

// Expand replaces each ${NAME} in s with the variable's value; an unset variable is an error
// naming it.
func Expand(s string, lookup func(string) (string, bool)) (string, error) {
	if _, err := EnvRefs(s); err != nil {
		return "", err
	}
	var missing string
	out := envRef.ReplaceAllStringFunc(s, func(ref string) string {
		name := ref[2 : len(ref)-1]
		v, ok := lookup(name)
		if !ok && missing == "" {
			missing = name
		}
		return v
	})
	if missing != "" {
		return "", fmt.Errorf("environment variable %s is not set", missing)
	}
	return out, nil
}

// clip cuts s to n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
