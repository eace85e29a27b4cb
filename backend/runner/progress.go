package runner

import "observatory/backend/agent"

// Kind names a progress event.
type Kind string

// Progress event kinds, in the order a run produces them.
const (
	RunStarted     Kind = "run-started"
	AttemptStarted Kind = "attempt-started"
	StepDone       Kind = "step"
	CheckDone      Kind = "check"
	Frame          Kind = "frame"
	// Screencast carries a live frame of an attempt's page, or, with no frame, why its page
	// cannot be watched live.
	Screencast      Kind = "screencast"
	AttemptFinished Kind = "attempt-finished"
	// MediaSaved says an attempt's video and trace are written, after its verdict (see
	// agent.Detacher); every one comes before the run's end.
	MediaSaved  Kind = "media-saved"
	RunFinished Kind = "run-finished"
	Error       Kind = "error"
	// ModelWait says a model planner started or stopped waiting because every model refused.
	ModelWait Kind = "model-wait"
)

// Progress is one thing that happened during a run, for whoever is watching.
type Progress struct {
	RunID string `json:"run_id"`
	Kind  Kind   `json:"kind"`
	Slug  string `json:"slug,omitempty"`
	// Index and Total place the attempt in the batch (1-based).
	Index   int            `json:"index,omitempty"`
	Total   int            `json:"total,omitempty"`
	Step    *agent.Step    `json:"step,omitempty"`
	Check   *agent.Check   `json:"check,omitempty"`
	Events  []agent.Event  `json:"events,omitempty"` // app events new since the last progress
	Attempt *agent.Attempt `json:"attempt,omitempty"`
	// Frame is the media path of the newest screenshot, relative to the run's media folder.
	Frame string `json:"frame,omitempty"`
	// Live is a screencast event's frame of the attempt's page.
	Live *agent.LiveFrame `json:"live,omitempty"`
	// Media is a media-saved event's recording: the attempt's video and trace.
	Media *agent.Recording `json:"media,omitempty"`
	// Endpoint names the browser endpoint an attempt runs on, on attempt-started and
	// attempt-finished.
	Endpoint string          `json:"endpoint,omitempty"`
	Status   agent.RunStatus `json:"status,omitempty"`
	// Waiting is set on a model-wait event while the attempt waits for a model.
	Waiting bool   `json:"waiting,omitempty"`
	Message string `json:"message,omitempty"`
}
