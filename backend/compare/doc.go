// Package compare puts two runs side by side, attempt by attempt: for each attempt slug, how
// each run's attempt ended, each of its verdicts (the ground truth, the task's signals, the
// completion gate) with its "wrong" mark, its step count and its duration, and which of them
// differ. It reads recorded runs only and judges nothing anew; the UI shows what it returns.
package compare
