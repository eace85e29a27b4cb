//go:build !unix

package browser

// yieldCPU leaves the encoder's priority as it is where processes have no nice value.
func yieldCPU(int) {}
