// Package bench holds Observatory's performance benchmarks. They compare the executor, with
// its full before/after sampling, against the same actions as bare playwright-go calls in
// the same process, so the ratio says what the harness costs on this machine today.
// run.sh runs them and prints the ratios.
package bench
