//go:build !linux

package browser

// watchExit watches nothing outside Linux: the driver's death is noticed at the next call,
// which playwright-go then fails at once.
func watchExit(int, func(string)) {}
