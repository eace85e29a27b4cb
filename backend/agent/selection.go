package agent

import "errors"

// ErrNothingSelected is wrapped by the error of a run whose selection holds no attempt (a
// shard past the last attempt, a folder with no task file): an empty run is not a pass, and
// the command line gives it an exit status of its own.
var ErrNothingSelected = errors.New("no attempt matched the selection")
