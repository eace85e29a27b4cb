package cli

import (
	"github.com/spf13/pflag"

	"observatory/backend/agent"
)

// mediaFlags choose what the attempts of run and mcp record: video and screenshots unless
// turned off, a trace, bodies and DOM snapshots when asked for.
type mediaFlags struct {
	noVideo, noScreenshots, trace, bodies, dom bool
	pixelRatio                                 float64
	evidence                                   string
}

func (m *mediaFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&m.noVideo, "no-video", false, "do not record a video of each attempt")
	fs.BoolVar(&m.noScreenshots, "no-screenshots", false, "do not store a screenshot before and after each action")
	fs.BoolVar(&m.trace, "trace", false, "also record a Playwright trace of each attempt, <slug>.trace.zip, which npx playwright show-trace FILE opens")
	fs.Float64Var(&m.pixelRatio, "pixel-ratio", 1, "the device pixel ratio pages are opened at: 2 stores screenshots twice as sharp (4 times the pixels), as a HiDPI screen shows the page; 1 to 3")
	fs.BoolVar(&m.dom, "dom-snapshots", false, "also keep a static copy of the page's DOM beside each screenshot (scripts removed, at most 2 MiB), which the window shows in a sandboxed frame")
	fs.StringVar(&m.evidence, "evidence", "full", "how much each step keeps: full (every step's before and after with its screenshot) or lean (a screenshot only where something went wrong, and no video: what the verdicts are re-judged from, at a fraction of the cost), or first-trial (with --repeat: each attempt's first trial full, its later trials lean)")
	fs.BoolVar(&m.bodies, "bodies", false, "also record request and response bodies with each step's network traffic (64 KiB each, 512 KiB per attempt, secrets masked)")
}

// media is what the flags ask the attempts to record.
func (m mediaFlags) media() agent.Media {
	return agent.Media{Video: !m.noVideo, Screenshots: !m.noScreenshots, Trace: m.trace, Bodies: m.bodies, PixelRatio: m.pixelRatio, DOM: m.dom,
		Evidence: agent.EvidenceLevel(m.evidence)}
}
