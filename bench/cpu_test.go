package bench

import "errors"

// errNoMeter means the CPU time cannot be measured here (see meterCPU).
var errNoMeter = errors.New("no CPU meter")

// read is the CPU time, in seconds, counted so far; errNoMeter for a nil meter.
func (m *cpuMeter) read() (float64, error) {
	if m == nil {
		return 0, errNoMeter
	}
	return m.usage()
}
