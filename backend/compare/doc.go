// Package compare puts two runs side by side. Runs does it attempt by attempt: for each
// attempt slug, how each run's attempt ended, each of its verdicts (the ground truth, the
// task's signals, the completion gate) with its "wrong" mark, its step count and its
// duration, and which of them differ. Rates does it as an A/B test over repeated trials: each
// attempt's completion rate in both, the difference with its interval, and an exact test of
// whether it is more than noise. It reads recorded runs only and judges nothing anew; the UI
// shows what it returns.
package compare
