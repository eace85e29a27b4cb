// Package labs lists the synthetic web apps Observatory ships, by name.
package labs

import (
	"fmt"
	"sort"

	"observatory/backend/agent"
	"observatory/backend/labs/booking"
)

var all = map[string]func() agent.Lab{
	"booking": func() agent.Lab { return booking.New() },
}

// Get returns the lab called name, or an error listing the labs there are.
func Get(name string) (agent.Lab, error) {
	if mk, ok := all[name]; ok {
		return mk(), nil
	}
	return nil, fmt.Errorf("no lab called %q; the labs are %v", name, Names())
}

// Names lists the labs in order.
func Names() []string {
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
