// Package agent holds Observatory's domain: what the user asked (Task), what the planner
// proposes (Action, Plan), what policy decided (Decision), what the page showed (Sample),
// what happened (Step, Attempt) and how it ended (Terminal, Verdicts). It also runs the
// executor loop. It knows nothing of Playwright, GORM or Wails: adapters implement the
// Browser, Page and Instance interfaces declared here.
package agent
