// Package bench holds Observatory's performance benchmarks. They compare the executor, with
// its full before/after sampling, against the same actions as bare playwright-go calls in
// the same process, so the ratio says what the harness costs on this machine today.
// run.sh runs them and prints the ratios and where the executor's time went, call by call;
// profile.sh counts the DevTools messages each side sends and profiles the Go process;
// README.md keeps what they found. BenchmarkUIScale (ui.sh) measures the window at
// scale instead: a generated 10,000-step run and a history of 1,001 runs, served by
// `observatory serve` to headless Chromium, each number printed with its ratio to the target;
// BenchmarkLiveStream (also ui.sh) the live view's frames a second against its target.
package bench
