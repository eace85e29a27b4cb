package cli

import (
	"fmt"
	"io"
	"time"

	"observatory/backend/liveproc"
	"observatory/backend/runner"
)

// offer offers run runID of this process to the windows (the desktop, serve) open on its data
// folder, so they show it live and ask its approvals (see liveproc); command names what runs
// it, such as "observatory mcp". A run that cannot be
// offered runs all the same: why is said on w, and nil returned.
func offer(w io.Writer, dataDir, command, runID, task string) *liveproc.Host {
	h, err := liveproc.Offer(dataDir, liveproc.Info{RunID: runID, Command: command, Task: task, Started: time.Now()})
	if err != nil {
		fmt.Fprintf(w, "the desktop and serve cannot follow this run: %s\n", safe(err.Error()))
		return nil
	}
	return h
}

// offered is emit that also sends each progress event to the windows following the run.
func offered(emit func(runner.Progress), h *liveproc.Host) func(runner.Progress) {
	if h == nil {
		return emit
	}
	return func(p runner.Progress) {
		emit(p)
		h.Progress(p)
	}
}
