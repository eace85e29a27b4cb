// Package runner runs a batch of a lab's attempts in a real browser: for each attempt it
// starts a fresh lab instance and page, drives the executor, closes the page (which aborts
// anything still in flight), waits for the lab to settle, judges the attempt from its events
// and steps, and records everything as it goes. The command line and the desktop app both
// run attempts through it.
package runner
