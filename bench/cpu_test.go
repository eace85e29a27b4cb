package bench

import (
	"errors"
	"testing"
)

// errNoMeter means the CPU time cannot be measured here (see meterCPU).
var errNoMeter = errors.New("no CPU meter")

// read is the CPU time, in seconds, counted so far; errNoMeter for a nil meter.
func (m *cpuMeter) read() (float64, error) {
	if m == nil {
		return 0, errNoMeter
	}
	return m.usage()
}

// cpuMark is what a meter had counted at one moment: everything in the group, this process
// (Observatory, or the bare benchmark) alone, and its Playwright drivers.
type cpuMark struct {
	all, self, driver float64
	hasDriver         bool
	err               error
}

// mark reads the meter now.
func (m *cpuMeter) mark() cpuMark {
	all, err := m.read()
	driver, hasDriver := driverCPU()
	return cpuMark{all: all, self: selfCPU(), driver: driver, hasDriver: hasDriver, err: err}
}

// report reports the CPU time spent since from, per iteration of b: cpu-s/op for the whole
// group (this process, the Playwright driver, the browsers and their encoders),
// self-cpu-s/op for this process alone and driver-cpu-s/op for its Playwright drivers (when
// found), so that the two sides of a comparison can be told apart and the rest is the
// browser's.
// A meter that cannot measure reports nothing.
func (m *cpuMeter) report(b *testing.B, from cpuMark) {
	to := m.mark()
	if from.err != nil || to.err != nil || b.N == 0 {
		return
	}
	b.ReportMetric((to.all-from.all)/float64(b.N), "cpu-s/op")
	b.ReportMetric((to.self-from.self)/float64(b.N), "self-cpu-s/op")
	if from.hasDriver && to.hasDriver {
		b.ReportMetric((to.driver-from.driver)/float64(b.N), "driver-cpu-s/op")
	}
}
