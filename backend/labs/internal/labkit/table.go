package labkit

import (
	"errors"
	"fmt"

	"observatory/backend/agent"
)

// Measured is what measure makes of an attempt's naive and its harnessed run, for the row
// of a lab's table that shows both; the error names each run it could not measure.
func Measured[M any](measure func(agent.Attempt) (M, error), naive, harnessed agent.Attempt) (n, h M, err error) {
	n, err1 := measure(naive)
	h, err2 := measure(harnessed)
	return n, h, errors.Join(err1, err2)
}

// CheckTable says how a naive and a harnessed run of a lab's attempts differ from its table:
// an attempt in specs not run both ways, a row that row cannot make, or a row that differs
// from table's. row makes the row of one attempt from its naive and its harnessed run. Nil
// means identical.
func CheckTable[R comparable](specs []agent.AttemptSpec, naive, harnessed []agent.Attempt,
	table map[string]R, row func(naive, harnessed agent.Attempt) (R, error)) error {
	n, h := bySlug(naive), bySlug(harnessed)
	var errs []error
	for _, spec := range specs {
		na, ok1 := n[spec.Slug]
		ha, ok2 := h[spec.Slug]
		if !ok1 || !ok2 {
			errs = append(errs, fmt.Errorf("%s: not run both ways", spec.Slug))
			continue
		}
		got, err := row(na, ha)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if want := table[spec.Slug]; got != want {
			errs = append(errs, fmt.Errorf("%s: %+v, want %+v (naive: %s: %s; harnessed: %s: %s)",
				spec.Slug, got, want, na.Terminal, na.Reason, ha.Terminal, ha.Reason))
		}
	}
	return errors.Join(errs...)
}

// bySlug indexes attempts by their slug; a later attempt with the same slug wins.
func bySlug(as []agent.Attempt) map[string]agent.Attempt {
	m := map[string]agent.Attempt{}
	for _, a := range as {
		m[a.Slug] = a
	}
	return m
}
