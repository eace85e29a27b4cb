package runfile

import "time"

// The types of observatory.run/v1, frozen as that format was written. Version 1 knew one
// task shape (a reservation's title and room), four verdict columns and a save latency in
// the configuration; its steps, samples and events read as version 2's. mapping.go turns a
// v1 file into the domain, so v1 files still import and verify.

type fileV1 struct {
	Schema   string      `json:"schema"`
	Exported time.Time   `json:"exported"`
	Run      runV1       `json:"run"`
	Attempts []attemptV1 `json:"attempts"`
}

type runV1 struct {
	ID      string    `json:"id"`
	Lab     string    `json:"lab"`
	Created time.Time `json:"created"`
	Source  string    `json:"source"`
}

type taskV1 struct {
	Title string `json:"title"`
	Room  string `json:"room"`
}

type configV1 struct {
	configV2
	LatencyMS int `json:"latency_ms"`
}

type verdictsV1 struct {
	SavedAsAsked verdictV2 `json:"saved_as_asked"`
	Notice       verdictV2 `json:"notice"`
	Parallax     verdictV2 `json:"parallax"`
	Gate         gateV2    `json:"gate"`
}

type attemptV1 struct {
	Slug     string     `json:"attempt"`
	Title    string     `json:"title"`
	Task     taskV1     `json:"task"`
	Config   configV1   `json:"config"`
	Plan     []actionV2 `json:"plan"`
	Steps    []stepV2   `json:"steps"`
	Events   []eventV2  `json:"events"`
	Terminal string     `json:"terminal"`
	Reason   string     `json:"reason"`
	Verdicts verdictsV1 `json:"verdicts"`
	Started  time.Time  `json:"started"`
	Video    string     `json:"video,omitempty"`
	Trace    string     `json:"trace,omitempty"`
}

// The names version 1 gave its verdict columns, as the domain names signals.
const (
	v1Truth         = "saved as asked"
	v1Notice        = "notice"
	v1NoticeLabel   = "success notice"
	v1Parallax      = "parallax"
	v1ParallaxLabel = "Parallax's check"
	// v1Latency is the attempt parameter version 1 kept in its configuration.
	v1Latency = "latency_ms"
)

// V1Intent renders version 1's task, a reservation's title and room, as an intent sentence.
// A lab whose runs were written as version 1 states its intent this way, so that a v1
// file's task compares equal to the lab's.
func V1Intent(title, room string) string {
	return "Reserve " + quoted(title) + " in room " + quoted(room) + "."
}

func quoted(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		if r == '"' || r == '\\' {
			b = append(b, '\\')
		}
		b = append(b, string(r)...)
	}
	return string(append(b, '"'))
}
