//go:build !linux

package bench

import "testing"

// cpuMeter measures nothing outside Linux, which alone has control groups.
type cpuMeter struct{ usage func() (float64, error) }

// meterCPU is nil outside Linux.
func meterCPU(testing.TB) *cpuMeter { return nil }

// selfCPU measures nothing outside Linux.
func selfCPU() float64 { return 0 }

// driverCPU measures nothing outside Linux.
func driverCPU() (float64, bool) { return 0, false }
