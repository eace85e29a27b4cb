package labkit

import "fmt"

// IntParam is the value of a lab's one int parameter name in params, def when params does not
// set it, or an error naming lab when params sets any other parameter.
func IntParam(lab string, params map[string]int, name string, def int) (int, error) {
	v := def
	for k, p := range params {
		if k != name {
			return 0, fmt.Errorf("%s lab has no parameter %q; it has %s", lab, k, name)
		}
		v = p
	}
	return v, nil
}
