// Package outside runs an agent process Observatory does not plan for: a program of the
// user's own (Puppeteer or Playwright code, browser-use, a computer-use loop) that drives the
// browser it is handed over the DevTools protocol. Its inputs are observed in the page, never
// proposed; the gate judges the state it leaves, and what it says of its own work (its exit
// status, a last stdout line or a claim file) becomes the agent's claim.
package outside
